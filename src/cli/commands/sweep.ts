/**
 * @module `machine-api sweep`: the one-shot sweep (CronJob): publishes every key to JetStream when
 * NATS_URL is set, else reconciles each here; then the status-check pass (EC2 status checks of
 * Running Machines, recorded on each) and the orphan-instance sweep. Exits 1 when a kind
 * could not be listed.
 */
import { z } from 'zod'
import { createDeps } from '../../deps'
import { sweepOrphanInstances } from '../../reconcile/machine-class/orphan-sweep'
import type { CliCommand } from '../command'
import { parseConfig, sourced } from '../config'
import { runtimeControllers } from '../controllers'
import { runStatusCheckPass } from '../entry/status-check-pass'
import { sweepOnce } from '../entry/sweep-once'
import { loggedInstallationOwner } from '../installation-owner'
import { controllersFlag, parseRuntimeSettings, runtimeEnvHelp } from '../runtime-settings'

const passesSchema = z.object({
  orphans: z.enum(['report', 'terminate', 'off']).default('report'),
  statusChecks: z.enum(['on', 'off']).default('on'),
})

/** `sweep`: the same process as `functions/sweep.ts`. */
export const sweepCommand: CliCommand = {
  name: 'sweep',
  summary:
    'sweep every object once (CronJob), then read instance status checks and look for orphaned instances',
  description:
    'Lists every selected kind page by page and enqueues each object: to JetStream when $NATS_URL is set, else reconciled in this process. Then the status-check pass asks the provider (EC2 DescribeInstanceStatus, batched) about every Running Machine and records failing system or instance checks on it (condition StatusChecksPassed). Then the orphan sweep reports (or terminates) provider instances tagged as ours that no Machine owns. Exits 1 when a kind could not be listed.',
  flags: {
    controllers: controllersFlag,
    orphans: {
      type: 'string',
      value: 'report|terminate|off',
      description: 'what to do with orphaned instances (default report; $ORPHAN_SWEEP)',
    },
    'status-checks': {
      type: 'string',
      value: 'on|off',
      description: 'read instance status checks of Running Machines (default on; $STATUS_CHECKS)',
    },
  },
  env: {
    ORPHAN_SWEEP: 'default of --orphans',
    STATUS_CHECKS: 'default of --status-checks',
    ...runtimeEnvHelp,
  },
  async run(values, io) {
    const settings = parseRuntimeSettings(values, io.env)
    const { orphans, statusChecks } = parseConfig(passesSchema, {
      orphans: sourced(values, io.env, { flag: 'orphans', env: 'ORPHAN_SWEEP' }),
      statusChecks: sourced(values, io.env, { flag: 'status-checks', env: 'STATUS_CHECKS' }),
    })
    const deps = createDeps('machine-api-sweep')
    try {
      const owner = await loggedInstallationOwner(deps, io.env)
      const { providers, controllers } = runtimeControllers(settings, io.env, owner)
      const report = await sweepOnce(deps, settings, controllers)
      // Status checks before orphans: a failing instance is worth more than a report.
      if (statusChecks === 'on') await runStatusCheckPass(deps, providers, settings.namespace)
      if (orphans !== 'off') {
        await sweepOrphanInstances({
          kube: deps.kube,
          providers,
          log: deps.log,
          fieldManager: deps.fieldManager,
          now: () => deps.clock.now(),
          terminate: orphans === 'terminate',
        })
      }
      await providers.close()
      return report.failedKinds.length > 0 ? 1 : 0
    } finally {
      deps.close()
    }
  },
}
