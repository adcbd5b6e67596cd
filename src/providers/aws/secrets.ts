/**
 * @module Reads the credentials and user data Secrets of an `aws` Machine. Values go straight into
 * the SDK; they are never logged, put in Events, errors or status.
 */

import { TransientError } from '../../errors'
import type { ActuatorContext, SecretRef } from '../actuator'
import { InvalidConfigurationError } from '../errors'
import type { AwsCredentials } from './client-pool'
import type { AwsProviderSpec } from './spec'

/** The keys of a credentials Secret (the names the AWS CLI's credentials file uses). */
export const credentialKeys = {
  accessKeyId: 'aws_access_key_id',
  secretAccessKey: 'aws_secret_access_key',
  sessionToken: 'aws_session_token',
} as const

/** The default key of a user data Secret. */
export const defaultUserDataKey = 'userData'

// A missing Secret is usually an ordering race (GitOps applies it after the Machine), so it is
// retried rather than failing the Machine for good; the message says what to create.
const missingSecretRetryMs = 30_000

function missing(what: string, ref: SecretRef, key: string, field: string): TransientError {
  return new TransientError(
    `${what} Secret ${ref.name} (key ${key}) not found in the Machine's namespace (check ${field})`,
    { reason: 'SecretNotFound', retryAfterMs: missingSecretRetryMs },
  )
}

const decoder = new TextDecoder('utf-8', { fatal: false })

/**
 * Static credentials from the spec's `credentialsSecret`, else the class's `credentialsSecretRef`;
 * undefined means "use the SDK's default chain" (IRSA, pod identity, environment, IMDS).
 */
export async function readCredentials(
  ctx: Pick<ActuatorContext, 'secrets' | 'credentialsSecretRef'>,
  spec: AwsProviderSpec,
): Promise<AwsCredentials | undefined> {
  return readCredentialsSecret(ctx.secrets, spec.credentialsSecret ?? ctx.credentialsSecretRef)
}

/** Static credentials from the Secret `ref` names; undefined ref: the SDK's default chain. */
export async function readCredentialsSecret(
  secrets: ActuatorContext['secrets'],
  ref: SecretRef | undefined,
): Promise<AwsCredentials | undefined> {
  if (!ref) return undefined
  const read = async (key: string) => {
    const value = await secrets.readSecret(ref.name, key)
    return value === undefined ? undefined : decoder.decode(value).trim()
  }
  const accessKeyId = await read(credentialKeys.accessKeyId)
  if (accessKeyId === undefined) {
    throw missing('credentials', ref, credentialKeys.accessKeyId, 'credentialsSecret')
  }
  const secretAccessKey = await read(credentialKeys.secretAccessKey)
  if (secretAccessKey === undefined) {
    throw missing('credentials', ref, credentialKeys.secretAccessKey, 'credentialsSecret')
  }
  if (accessKeyId === '' || secretAccessKey === '') {
    throw new InvalidConfigurationError(`credentials Secret ${ref.name} has empty keys`, {
      reason: 'InvalidCredentials',
      field: 'credentialsSecret',
    })
  }
  const sessionToken = await read(credentialKeys.sessionToken)
  return { accessKeyId, secretAccessKey, sessionToken: sessionToken || undefined }
}

/** EC2's limit on user data before base64 encoding (16 KiB). */
export const maxUserDataBytes = 16 * 1024

/**
 * The user data from the spec's `userDataSecret`, else the class's `userDataSecretRef`, as
 * base64 of the Secret's bytes (passed through unchanged, e.g. gzip or MIME multipart).
 */
export async function readUserDataBase64(
  ctx: ActuatorContext,
  spec: AwsProviderSpec,
): Promise<string | undefined> {
  const ref = spec.userDataSecret ?? ctx.userDataSecretRef
  if (!ref) return undefined
  const key = ref.key ?? defaultUserDataKey
  const value = await ctx.secrets.readSecret(ref.name, key)
  if (value === undefined) throw missing('user data', ref, key, 'userDataSecret')
  if (value.byteLength > maxUserDataBytes) {
    throw new InvalidConfigurationError(
      `user data in Secret ${ref.name} is ${value.byteLength} bytes; EC2 allows ${maxUserDataBytes}`,
      { reason: 'InvalidUserData', field: 'userDataSecret' },
    )
  }
  return Buffer.from(value).toString('base64')
}
