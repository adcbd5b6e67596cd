/**
 * @module Condition types that more than one layer names: a controller sets them, admission or
 * another controller refers to them. Pure constants, no zod, so any module may import them.
 */

/** The condition a MachineHealthCheck sets on each Machine it checks. */
export const healthCheckSucceededCondition = 'HealthCheckSucceeded'

/**
 * The Machine condition EC2's instance status checks feed (the sweep's DescribeInstanceStatus):
 * False while the system or instance check fails, True once they pass again.
 */
export const statusChecksPassedCondition = 'StatusChecksPassed'
