/**
 * @module The reconcile functions' settings (worker, reconcile, sweep) from flags and environment,
 * checked by hand (see SettingsChecker), with errors that name the flag or variable.
 */
import type { RuntimeSettings } from '../deps'
import type { FlagSpec, FlagValues } from './command'
import { type ConfigIssue, configError, type SourcedValue, sourced } from './config'

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

/** The raw settings, by field: each value with the flag or variable it came from. */
export type RawSettings = Record<
  | 'controllers'
  | 'port'
  | 'namespace'
  | 'natsUrl'
  | 'sweepPeriodSeconds'
  | 'concurrency'
  | 'bus'
  | 'bridge',
  SourcedValue
>

/**
 * Checks the raw settings by hand, not with zod: the worker parses them before it serves
 * `/readyz`, and importing zod (about 30 ms of CPU) is otherwise not needed until a reconcile
 * parses a spec. Issues and messages are those of the zod schema this replaced (the unit test
 * compares them on generated input): a wrong type stops the cross-field checks, a bad value does
 * not.
 */
class SettingsChecker {
  readonly issues: ConfigIssue[] = []
  /** A wrong type or an unknown choice, after which the cross-field checks do not run. */
  typeError = false

  constructor(private readonly raw: RawSettings) {}

  private fail(field: keyof RawSettings, message: string): undefined {
    this.issues.push({ field, message })
    return undefined
  }

  private failType(field: keyof RawSettings, message: string): undefined {
    this.typeError = true
    return this.fail(field, message)
  }

  text(field: keyof RawSettings, pattern?: { regex: RegExp; message: string }): string | undefined {
    const { value } = this.raw[field]
    if (value === undefined) return undefined
    if (typeof value !== 'string') {
      return this.failType(field, `Invalid input: expected string, received ${typeof value}`)
    }
    if (pattern && !pattern.regex.test(value)) this.fail(field, pattern.message)
    return value
  }

  wholeNumber(field: keyof RawSettings, fallback: number, min: number, max: number): number {
    const text = this.text(field)
    if (text === undefined) return fallback
    if (!/^[0-9]+$/.test(text)) return this.fail(field, 'must be a whole number') ?? fallback
    const n = Number(text)
    if (n < min) this.fail(field, `Too small: expected number to be >=${min}`)
    if (n > max) this.fail(field, `Too big: expected number to be <=${max}`)
    return n
  }

  bus(): RuntimeSettings['bus'] {
    const { value } = this.raw.bus
    if (value === undefined || value === 'in-process' || value === 'jetstream') {
      return value ?? 'in-process'
    }
    return (
      this.failType('bus', 'Invalid option: expected one of "in-process"|"jetstream"') ??
      'in-process'
    )
  }

  flag(field: keyof RawSettings): boolean {
    const { value } = this.raw[field]
    if (value === undefined || typeof value === 'boolean') return value === true
    if (['1', 'true', '0', 'false'].includes(value)) return value === '1' || value === 'true'
    return this.failType(field, 'Invalid input') ?? false
  }
}

/**
 * The raw settings from flags and environment. `bus` and `bridge` (`--bus`/$BUS,
 * `--bridge`/$WATCH_BRIDGE) are read only with `options.bus` (the worker); the other commands have
 * no transport choice and ignore them.
 */
export function rawRuntimeSettings(
  values: FlagValues,
  env: NodeJS.ProcessEnv,
  options: { bus?: boolean } = {},
): RawSettings {
  const unset = { value: undefined, source: '--bus' }
  return {
    controllers: sourced(values, env, { flag: 'controllers', env: 'CONTROLLERS' }),
    port: sourced(values, env, { env: 'PORT' }),
    namespace: sourced(values, env, { env: 'WATCH_NAMESPACE' }),
    natsUrl: sourced(values, env, { env: 'NATS_URL' }),
    sweepPeriodSeconds: sourced(values, env, { env: 'SWEEP_PERIOD_SECONDS' }),
    concurrency: sourced(values, env, { env: 'CONCURRENCY' }),
    bus: options.bus ? sourced(values, env, { flag: 'bus', env: 'BUS' }) : unset,
    bridge: options.bus ? sourced(values, env, { flag: 'bridge', env: 'WATCH_BRIDGE' }) : unset,
  }
}

/**
 * Reads and validates the settings (see rawRuntimeSettings); throws UsageError naming each bad
 * flag or variable.
 */
export function parseRuntimeSettings(
  values: FlagValues,
  env: NodeJS.ProcessEnv,
  options: { bus?: boolean } = {},
): RuntimeSettings {
  const raw = rawRuntimeSettings(values, env, options)
  const check = new SettingsChecker(raw)
  const s = {
    controllers: check.text('controllers'),
    port: check.wholeNumber('port', 8080, 1, 65535),
    namespace: check.text('namespace'),
    natsUrl: check.text('natsUrl', {
      regex: /^(nats|tls|ws|wss):\/\/\S+$/,
      message: 'must be a nats://, tls://, ws:// or wss:// URL',
    }),
    sweepPeriodSeconds: check.wholeNumber('sweepPeriodSeconds', 300, 0, 31_536_000),
    concurrency: check.wholeNumber('concurrency', 8, 1, 10_000),
    bus: check.bus(),
    bridge: check.flag('bridge'),
  }
  if (!check.typeError) {
    if (s.bus === 'jetstream' && s.natsUrl === undefined) {
      check.issues.push({ field: 'natsUrl', message: 'required with --bus jetstream' })
    }
    if (s.bridge && s.bus !== 'jetstream') {
      check.issues.push({ field: 'bridge', message: 'only with --bus jetstream' })
    }
  }
  if (check.issues.length > 0) throw configError(raw, check.issues)
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
