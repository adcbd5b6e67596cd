/**
 * The zod-validated reconcile settings: the same values as `readSettings` (src/deps.ts) for every
 * valid input, so `functions/*.ts` behave as before, and errors that name the flag or variable.
 */
import { describe, expect, it } from 'vitest'
import type { FlagValues } from '../../../src/cli/command'
import { parseRuntimeSettings } from '../../../src/cli/runtime-settings'
import { readSettings } from '../../../src/deps'

describe('parseRuntimeSettings', () => {
  it.each<{ name: string; values: FlagValues; argv: string[]; env: NodeJS.ProcessEnv }>([
    { name: 'defaults', values: {}, argv: [], env: {} },
    {
      name: 'worker on JetStream with the bridge',
      values: { bus: 'jetstream', bridge: true, controllers: '*' },
      argv: ['--bus', 'jetstream', '--bridge', '--controllers', '*'],
      env: { NATS_URL: 'nats://nats:4222' },
    },
    {
      name: 'everything from the environment',
      values: {},
      argv: [],
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
    },
    {
      name: 'flags win over the environment',
      values: { bus: 'in-process', controllers: 'machine' },
      argv: ['--bus', 'in-process', '--controllers', 'machine'],
      env: { BUS: 'jetstream', CONTROLLERS: 'machineset', NATS_URL: 'nats://n:4222' },
    },
  ])('matches readSettings: $name', ({ values, argv, env }) => {
    expect(parseRuntimeSettings(values, env, { bus: true })).toEqual(readSettings(argv, env))
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
})
