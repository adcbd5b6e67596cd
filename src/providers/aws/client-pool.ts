/**
 * @module EC2 clients per (region, credentials), owned by one provider instance. Clients are reused
 * across calls (they hold sockets) and destroyed on eviction and close, so rotated credentials and
 * many classes cannot leak connections.
 */
import { createHash } from 'node:crypto'
import { EC2Client } from '@aws-sdk/client-ec2'
import { createMemo, type Memo } from '../../memo'
import { isOfferingMissAnswer } from './errors'
import { type GroupLaunch, groupLaunchTtlMs } from './group-member'
import { createInstanceReads } from './instance-reads'
import { type LaunchFacts, launchFactsTtlMs } from './launch-facts'
import type { InstanceReads } from './lookup'
import { createRateLimiter } from './rate-limiter'
import { createTerminations, type Terminations } from './terminations'

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
  /** Mutating EC2 calls (RunInstances, TerminateInstances, CreateTags...) per second per client (default 5, bursts of 25). */
  callsPerSecond?: number | undefined
  /** Describe* calls per second per client (default 10, bursts of 50). */
  describeCallsPerSecond?: number | undefined
  /** SDK attempts per call, with the SDK's adaptive retry mode (default 3). */
  maxAttempts?: number | undefined
  /** Called with the command name before every EC2 call: for metrics and call-count tests. */
  onCall?: ((command: string) => void) | undefined
  /** Clients kept at once (default 32); the least recently used is destroyed beyond that. */
  maxClients?: number | undefined
}

/** What the Machines on one client share, so that many Machines make few calls. */
export interface ClientLookups {
  instances: InstanceReads
  launchFacts: Memo<LaunchFacts>
  terminations: Terminations
  /** Launch groups' RunInstances answers, shared by the members asking in this process. */
  groupLaunches: Memo<GroupLaunch>
}

/** The provider's clients. */
export interface ClientPool {
  get(region: string | undefined, credentials: AwsCredentials | undefined): EC2Client
  /** What `client`'s Machines share: batched instance reads and terminations, kept launch facts. */
  lookupsOf(client: EC2Client): ClientLookups
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

/**
 * EC2 throttles per account in separate token buckets for non-mutating (Describe*) and mutating
 * calls (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html: 100 tokens
 * refilled at 20/s, and 50 at 5/s). One shared bucket made the reads a reconcile needs first wait
 * behind launches: after a restart with 15 Machines to check, the first launch came 4.7 s late.
 * Each default here is half of that account budget or less, leaving room for other tools.
 */
function isDescribe(command: string): boolean {
  return command.startsWith('Describe')
}

/**
 * A capacity miss as the SDK's retries see it: final. EC2 answers InsufficientInstanceCapacity and
 * its kin with HTTP 500, which the SDK retries as transient (3 requests per miss, with backoff);
 * asking the same offering again at once only delays the move to the next one. The status code
 * is taken off the error's metadata (the retry test reads it), everything else is kept.
 */
function finalCapacityAnswer(error: unknown): unknown {
  if (!isOfferingMissAnswer(error)) return error
  const sdk = error as { $metadata?: Record<string, unknown> }
  if (sdk.$metadata) sdk.$metadata = { ...sdk.$metadata, httpStatusCode: undefined }
  return error
}

/** Creates an empty pool. */
export function createClientPool(options: ClientPoolOptions): ClientPool {
  const clients = new Map<string, EC2Client>()
  const lookups = new WeakMap<EC2Client, ClientLookups>()
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
    // Bursts of 5 s of refill: half of each of EC2's buckets at the default rates.
    const mutatingPerSecond = options.callsPerSecond ?? 5
    const mutating = createRateLimiter({
      perSecond: mutatingPerSecond,
      burst: Math.max(1, Math.ceil(5 * mutatingPerSecond)),
    })
    const describePerSecond = options.describeCallsPerSecond ?? 10
    const describing = createRateLimiter({
      perSecond: describePerSecond,
      burst: Math.max(1, Math.ceil(5 * describePerSecond)),
    })
    // Inside the retry loop (after retryMiddleware), so the retries see the answer it gives.
    const noCapacityRetry =
      (next: (args: unknown) => Promise<unknown>) =>
      async (args: unknown): Promise<unknown> => {
        try {
          return await next(args)
        } catch (error) {
          throw finalCapacityAnswer(error)
        }
      }
    client.middlewareStack.addRelativeTo(noCapacityRetry as never, {
      relation: 'after',
      toMiddleware: 'retryMiddleware',
      name: 'machineApiNoCapacityRetry',
    })
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName)
        options.onCall?.(command)
        const limiter = isDescribe(command) ? describing : mutating
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
    lookupsOf(client) {
      const existing = lookups.get(client)
      if (existing) return existing
      const created: ClientLookups = {
        instances: createInstanceReads(client),
        launchFacts: createMemo({ ttlMs: launchFactsTtlMs, callTimeoutMs: 30_000 }),
        terminations: createTerminations(client),
        groupLaunches: createMemo({ ttlMs: groupLaunchTtlMs, callTimeoutMs: 60_000 }),
      }
      lookups.set(client, created)
      return created
    },
    close() {
      for (const client of clients.values()) client.destroy()
      clients.clear()
    },
  }
}
