import { describe, expect, it } from 'vitest'
import { TransientError } from '../../../../src/errors'
import type { ActuatorContext } from '../../../../src/providers/actuator'
import { readCredentials, readUserDataBase64 } from '../../../../src/providers/aws/secrets'
import { type AwsProviderSpec, awsProviderSpecSchema } from '../../../../src/providers/aws/spec'
import { InvalidConfigurationError } from '../../../../src/providers/errors'

type Secrets = Record<string, Record<string, Uint8Array>>

function ctx(secrets: Secrets, refs: Partial<ActuatorContext> = {}): ActuatorContext {
  return {
    secrets: { readSecret: async (name, key) => secrets[name]?.[key] },
    ...refs,
  } as ActuatorContext
}

const text = (value: string) => new TextEncoder().encode(value)

function spec(extra: Record<string, unknown> = {}): AwsProviderSpec {
  return awsProviderSpecSchema().parse({
    ami: { id: 'ami-0abc' },
    instanceType: 'm5.large',
    subnet: { id: 'subnet-0abc' },
    ...extra,
  })
}

const creds = {
  aws_access_key_id: text('AKIA1\n'),
  aws_secret_access_key: text('secret'),
}

describe('aws secrets', () => {
  it('uses the SDK default chain when no credentials Secret is named anywhere', async () => {
    expect(await readCredentials(ctx({}), spec())).toBeUndefined()
  })

  it.each([
    ['the spec', ctx({ s: creds }), spec({ credentialsSecret: { name: 's' } })],
    ['the MachineClass', ctx({ s: creds }, { credentialsSecretRef: { name: 's' } }), spec()],
  ])('reads (and trims) static credentials named by %s', async (_, context, s) => {
    expect(await readCredentials(context, s)).toEqual({
      accessKeyId: 'AKIA1',
      secretAccessKey: 'secret',
      sessionToken: undefined,
    })
  })

  it.each([
    ['a missing Secret', {}],
    ['a missing key', { s: { aws_access_key_id: text('a') } }],
  ])('retries later on %s, naming the Secret', async (_, secrets) => {
    const error = await readCredentials(ctx(secrets), spec({ credentialsSecret: { name: 's' } }))
      .then(() => undefined)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TransientError)
    expect((error as TransientError).reason).toBe('SecretNotFound')
    expect((error as Error).message).toContain('Secret s')
  })

  it('rejects empty credentials for good', async () => {
    const secrets = { s: { aws_access_key_id: text(' '), aws_secret_access_key: text('x') } }
    await expect(
      readCredentials(ctx(secrets), spec({ credentialsSecret: { name: 's' } })),
    ).rejects.toBeInstanceOf(InvalidConfigurationError)
  })

  it('passes user data bytes through unchanged as base64 (binary, e.g. gzip)', async () => {
    const bytes = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x7f])
    const encoded = await readUserDataBase64(
      ctx({ boot: { userData: bytes } }),
      spec({ userDataSecret: { name: 'boot' } }),
    )
    expect(Buffer.from(encoded ?? '', 'base64')).toEqual(Buffer.from(bytes))
  })

  it('reads user data from the MachineClass reference and key', async () => {
    const context = ctx(
      { b: { v: text('#!/bin/sh') } },
      { userDataSecretRef: { name: 'b', key: 'v' } },
    )
    expect(await readUserDataBase64(context, spec())).toBe(
      Buffer.from('#!/bin/sh').toString('base64'),
    )
  })

  it('has no user data when none is named', async () => {
    expect(await readUserDataBase64(ctx({}), spec())).toBeUndefined()
  })

  it('rejects user data over 16 KiB for good, without quoting it', async () => {
    const big = new Uint8Array(16 * 1024 + 1).fill(65)
    const error = await readUserDataBase64(
      ctx({ boot: { userData: big } }),
      spec({ userDataSecret: { name: 'boot' } }),
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidConfigurationError)
    expect((error as Error).message).not.toContain('AAAA')
  })
})
