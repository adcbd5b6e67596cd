/**
 * @module The reconcile functions' settings (worker, reconcile, sweep) from flags and environment,
 * validated by zod, with errors that name the flag or variable.
 */
import { z } from 'zod'
import type { RuntimeSettings } from '../deps'
import type { FlagSpec, FlagValues } from './command'
import { parseConfig, sourced } from './config'

/** `--controllers`, shared by every reconcile command. */
export const controllersFlag: FlagSpec = {
  type: 'string',
  value: 'KINDS',
  description:
    'comma-separated controllers to run (machine, machineset, machinedeployment, machinehealthcheck); `*` or empty = all ($CONTROLLERS)',
}

/** Environment variables every reconcile command reads, for help text. */
export const runtimeEnvHelp: Record<string, string> = {
  KUBECONFIG: 'kubeconfig to use (else ~/.kube/config, else the in-cluster service account)',
  CONTROLLERS: 'default of --controllers',
  PORT: 'HTTP port for the function / health endpoints (default 8080)',
  WATCH_NAMESPACE: 'only this namespace (default: all)',
  NATS_URL: 'JetStream server, e.g. nats://nats:4222',
  SWEEP_PERIOD_SECONDS: 'in-process sweep period (default 300; 0 disables)',
  CONCURRENCY: 'reconciles at once (default 8)',
  MACHINE_API_PROVIDERS: 'providers to enable, comma-separated (default aws,kwok)',
  AWS_REGION: 'default AWS region',
  AWS_EC2_ENDPOINT: 'EC2 endpoint override (moto)',
  MACHINE_API_OWNER_ID: 'ownership tag value on EC2 resources (default machine-api)',
  LOG_LEVEL: 'pino log level (default info)',
}

const wholeNumber = (fallback: number, min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .optional()
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.number().min(min).max(max))

const flagBoolean = z
  .union([z.boolean(), z.enum(['1', 'true', '0', 'false'])])
  .optional()
  .transform((v) => v === true || v === '1' || v === 'true')

/** The schema of the reconcile settings (inputs are raw strings and flag booleans). */
export const runtimeSettingsSchema = z
  .object({
    controllers: z.string().optional(),
    port: wholeNumber(8080, 1, 65535),
    namespace: z.string().optional(),
    natsUrl: z
      .string()
      .regex(/^(nats|tls|ws|wss):\/\/\S+$/, 'must be a nats://, tls://, ws:// or wss:// URL')
      .optional(),
    sweepPeriodSeconds: wholeNumber(300, 0, 31_536_000),
    concurrency: wholeNumber(8, 1, 10_000),
    bus: z.enum(['in-process', 'jetstream']).default('in-process'),
    bridge: flagBoolean,
  })
  .superRefine((s, ctx) => {
    if (s.bus === 'jetstream' && s.natsUrl === undefined) {
      ctx.addIssue({ code: 'custom', path: ['natsUrl'], message: 'required with --bus jetstream' })
    }
    if (s.bridge && s.bus !== 'jetstream') {
      ctx.addIssue({ code: 'custom', path: ['bridge'], message: 'only with --bus jetstream' })
    }
  })

/**
 * Reads and validates the settings; throws UsageError naming each bad flag or variable. `bus`
 * and `bridge` (`--bus`/$BUS, `--bridge`/$WATCH_BRIDGE) are read only with `options.bus` (the
 * worker); the other commands have no transport choice and ignore them.
 */
export function parseRuntimeSettings(
  values: FlagValues,
  env: NodeJS.ProcessEnv,
  options: { bus?: boolean } = {},
): RuntimeSettings {
  const unset = { value: undefined, source: '--bus' }
  const s = parseConfig(runtimeSettingsSchema, {
    controllers: sourced(values, env, { flag: 'controllers', env: 'CONTROLLERS' }),
    port: sourced(values, env, { env: 'PORT' }),
    namespace: sourced(values, env, { env: 'WATCH_NAMESPACE' }),
    natsUrl: sourced(values, env, { env: 'NATS_URL' }),
    sweepPeriodSeconds: sourced(values, env, { env: 'SWEEP_PERIOD_SECONDS' }),
    concurrency: sourced(values, env, { env: 'CONCURRENCY' }),
    bus: options.bus ? sourced(values, env, { flag: 'bus', env: 'BUS' }) : unset,
    bridge: options.bus ? sourced(values, env, { flag: 'bridge', env: 'WATCH_BRIDGE' }) : unset,
  })
  return {
    controllers: s.controllers,
    port: s.port,
    namespace: s.namespace,
    natsUrl: s.natsUrl,
    sweepPeriodMs: s.sweepPeriodSeconds * 1000,
    concurrency: s.concurrency,
    bus: s.bus,
    bridge: s.bridge,
  }
}
