/**
 * @module EC2 clients per (region, credentials), owned by one provider instance. Clients are reused
 * across calls (they hold sockets) and destroyed on eviction and close, so rotated credentials and
 * many classes cannot leak connections.
 */
import { createHash } from 'node:crypto'
import { EC2Client } from '@aws-sdk/client-ec2'
import { createRateLimiter } from './rate-limiter'

/** Static credentials read from a Secret. */
export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string | undefined
}

/** How the provider builds its clients. */
export interface ClientPoolOptions {
  /** Overrides the EC2 endpoint (moto in tests, VPC endpoints in air-gapped setups). */
  endpoint?: string | undefined
  /** Region when the spec names none and the SDK's chain has none. */
  defaultRegion?: string | undefined
  /** EC2 calls per second per client (default 5; bursts of the same size). */
  callsPerSecond?: number | undefined
  /** SDK attempts per call, with the SDK's adaptive retry mode (default 3). */
  maxAttempts?: number | undefined
  /** Called with the command name before every EC2 call: for metrics and call-count tests. */
  onCall?: ((command: string) => void) | undefined
  /** Clients kept at once (default 32); the least recently used is destroyed beyond that. */
  maxClients?: number | undefined
}

/** The provider's clients. */
export interface ClientPool {
  get(region: string | undefined, credentials: AwsCredentials | undefined): EC2Client
  close(): void
}

/**
 * The `abortSignal` given to `client.send(command, { abortSignal })`: the SDK hands it to
 * middleware in the handler context under `__smithy_context` (SMITHY_CONTEXT_KEY of
 * @smithy/types), so a call waiting for a rate-limit slot stops waiting when its deadline passes.
 */
function sendSignal(context: object): AbortSignal | undefined {
  const smithy = (context as { __smithy_context?: { abortSignal?: unknown } }).__smithy_context
  return smithy?.abortSignal instanceof AbortSignal ? smithy.abortSignal : undefined
}

/** Creates an empty pool. */
export function createClientPool(options: ClientPoolOptions): ClientPool {
  const clients = new Map<string, EC2Client>()
  const max = options.maxClients ?? 32

  function build(region: string | undefined, credentials: AwsCredentials | undefined): EC2Client {
    const client = new EC2Client({
      region: region ?? options.defaultRegion,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(credentials ? { credentials } : {}),
      // Adaptive mode adds client-side rate limiting on throttling responses to the retries.
      retryMode: 'adaptive',
      maxAttempts: options.maxAttempts ?? 3,
    })
    const limiter = createRateLimiter({ perSecond: options.callsPerSecond ?? 5 })
    client.middlewareStack.add(
      (next, context) => async (args) => {
        options.onCall?.(String(context.commandName))
        await limiter.take(sendSignal(context))
        return await next(args)
      },
      { step: 'initialize', name: 'machineApiRateLimit' },
    )
    return client
  }

  return {
    get(region, credentials) {
      // The key hashes the secret so it never sits in memory as a readable map key.
      const secret = credentials
        ? createHash('sha256')
            .update(`${credentials.accessKeyId}\0${credentials.secretAccessKey}`)
            .update(`\0${credentials.sessionToken ?? ''}`)
            .digest('hex')
        : 'default-chain'
      const key = `${region ?? ''}|${secret}`
      const existing = clients.get(key)
      if (existing) {
        clients.delete(key)
        clients.set(key, existing)
        return existing
      }
      const client = build(region, credentials)
      clients.set(key, client)
      if (clients.size > max) {
        const [oldestKey, oldest] = clients.entries().next().value ?? []
        if (oldestKey !== undefined) clients.delete(oldestKey)
        oldest?.destroy()
      }
      return client
    },
    close() {
      for (const client of clients.values()) client.destroy()
      clients.clear()
    },
  }
}
