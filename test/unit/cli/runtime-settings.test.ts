/** The reconcile settings, with errors that name the flag or variable. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { FlagValues } from '../../../src/cli/command'
import { parseConfig } from '../../../src/cli/config'
import { parseRuntimeSettings, rawRuntimeSettings } from '../../../src/cli/runtime-settings'

/**
 * The zod schema the settings were parsed with before the worker stopped importing zod at start:
 * the reference for the hand-written checks' results and messages.
 */
const wholeNumber = (fallback: number, min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .optional()
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.number().min(min).max(max))

const zodSettingsSchema = z
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
    bridge: z
      .union([z.boolean(), z.enum(['1', 'true', '0', 'false'])])
      .optional()
      .transform((v) => v === true || v === '1' || v === 'true'),
  })
  .superRefine((s, ctx) => {
    if (s.bus === 'jetstream' && s.natsUrl === undefined) {
      ctx.addIssue({ code: 'custom', path: ['natsUrl'], message: 'required with --bus jetstream' })
    }
    if (s.bridge && s.bus !== 'jetstream') {
      ctx.addIssue({ code: 'custom', path: ['bridge'], message: 'only with --bus jetstream' })
    }
  })

/** What parsing with the zod schema gave: the settings, or the error's message. */
function zodReference(values: FlagValues, env: NodeJS.ProcessEnv, bus: boolean): unknown {
  try {
    const s = parseConfig(zodSettingsSchema, rawRuntimeSettings(values, env, { bus }))
    const { sweepPeriodSeconds, ...rest } = s
    return { ...rest, sweepPeriodMs: sweepPeriodSeconds * 1000 }
  } catch (error) {
    return (error as Error).message
  }
}

function handWritten(values: FlagValues, env: NodeJS.ProcessEnv, bus: boolean): unknown {
  try {
    return parseRuntimeSettings(values, env, { bus })
  } catch (error) {
    return (error as Error).message
  }
}

const defaults = {
  controllers: undefined,
  port: 8080,
  namespace: undefined,
  natsUrl: undefined,
  sweepPeriodMs: 300_000,
  concurrency: 8,
  bus: 'in-process',
  bridge: false,
}

describe('parseRuntimeSettings', () => {
  it.each<{ name: string; values: FlagValues; env: NodeJS.ProcessEnv; expected: object }>([
    { name: 'defaults', values: {}, env: {}, expected: defaults },
    {
      name: 'worker on JetStream with the bridge',
      values: { bus: 'jetstream', bridge: true, controllers: '*' },
      env: { NATS_URL: 'nats://nats:4222' },
      expected: {
        ...defaults,
        controllers: '*',
        natsUrl: 'nats://nats:4222',
        bus: 'jetstream',
        bridge: true,
      },
    },
    {
      name: 'everything from the environment',
      values: {},
      env: {
        CONTROLLERS: 'machine,machineset',
        PORT: '9090',
        WATCH_NAMESPACE: 'team-a',
        NATS_URL: 'nats://n:4222',
        SWEEP_PERIOD_SECONDS: '0',
        CONCURRENCY: '3',
        BUS: 'jetstream',
        WATCH_BRIDGE: '1',
      },
      expected: {
        controllers: 'machine,machineset',
        port: 9090,
        namespace: 'team-a',
        natsUrl: 'nats://n:4222',
        sweepPeriodMs: 0,
        concurrency: 3,
        bus: 'jetstream',
        bridge: true,
      },
    },
    {
      name: 'flags win over the environment',
      values: { bus: 'in-process', controllers: 'machine' },
      env: { BUS: 'jetstream', CONTROLLERS: 'machineset', NATS_URL: 'nats://n:4222' },
      expected: { ...defaults, controllers: 'machine', natsUrl: 'nats://n:4222' },
    },
  ])('reads $name', ({ values, env, expected }) => {
    expect(parseRuntimeSettings(values, env, { bus: true })).toEqual(expected)
  })

  it.each([
    { env: { PORT: '0' }, values: {}, message: '$PORT: Too small' },
    {
      env: { SWEEP_PERIOD_SECONDS: '-5' },
      values: {},
      message: '$SWEEP_PERIOD_SECONDS: must be a whole number',
    },
    { env: { CONCURRENCY: '0' }, values: {}, message: '$CONCURRENCY: Too small' },
    { env: { NATS_URL: 'localhost:4222' }, values: {}, message: '$NATS_URL: must be a nats://' },
    { env: {}, values: { bus: 'jetstream' }, message: '$NATS_URL: required with --bus jetstream' },
    { env: {}, values: { bridge: true }, message: '--bridge: only with --bus jetstream' },
    { env: { WATCH_BRIDGE: 'yes' }, values: {}, message: '$WATCH_BRIDGE: Invalid input' },
  ])('rejects $message', ({ env, values, message }) => {
    expect(() => parseRuntimeSettings(values as FlagValues, env, { bus: true })).toThrow(message)
  })

  it('ignores $BUS and $WATCH_BRIDGE for commands without a transport choice', () => {
    const env = { BUS: 'jetstream', WATCH_BRIDGE: '1' }
    expect(parseRuntimeSettings({}, env)).toMatchObject({ bus: 'in-process', bridge: false })
  })

  it('gives the settings and messages of the zod schema on generated input', () => {
    const numbers = [
      '',
      '0',
      '1',
      '8',
      '007',
      '65535',
      '65536',
      '10000',
      '10001',
      '31536000',
      '31536001',
      '99999999999999999999999',
      'abc',
      '1.5',
      '-5',
      ' 8',
    ]
    const maybe = <T>(...options: T[]) => fc.constantFrom<T | undefined>(undefined, ...options)
    const input = fc.record({
      values: fc.record({
        controllers: maybe<string | boolean>('', '*', 'machine', true),
        bus: maybe<string | boolean>('in-process', 'jetstream', 'foo', '', true),
        bridge: maybe<string | boolean>(true, false, '1', '0', 'true', 'false', 'yes', ''),
      }),
      env: fc.record({
        CONTROLLERS: maybe('', 'machine,machineset'),
        PORT: maybe(...numbers),
        WATCH_NAMESPACE: maybe('', 'team-a'),
        NATS_URL: maybe('', 'nats://n:4222', 'wss://n', 'localhost:4222', 'tls://a b'),
        SWEEP_PERIOD_SECONDS: maybe(...numbers),
        CONCURRENCY: maybe(...numbers),
        BUS: maybe('', 'in-process', 'jetstream', 'JetStream'),
        WATCH_BRIDGE: maybe('', '1', '0', 'true', 'false', 'yes'),
      }),
      bus: fc.boolean(),
    })
    fc.assert(
      fc.property(input, ({ values, env, bus }) => {
        const flags = Object.fromEntries(
          Object.entries(values).filter(([, v]) => v !== undefined),
        ) as FlagValues
        expect(handWritten(flags, env, bus)).toEqual(zodReference(flags, env, bus))
      }),
      { numRuns: 3000 },
    )
  })
})
