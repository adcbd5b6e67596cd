/**
 * @module The TerminateInstances of every Machine on one EC2 client, batched: the ids asked at
 * the same time go in one call (a scale-down of 100 Machines spent 100 mutating calls, 20 s of
 * the client's budget, before). EC2 fails the whole call when one id is unknown
 * (InvalidInstanceID.NotFound, as it may answer right after a launch): the ids of such a call are
 * then asked one by one, and an unknown one is taken as gone, as it was for one Machine alone.
 */
import { type EC2Client, TerminateInstancesCommand } from '@aws-sdk/client-ec2'
import { createBatchLoader } from '../../batch-loader'
import { classifyAwsError, isInstanceNotFound } from './errors'

/** Terminates instances, many a call. */
export interface Terminations {
  /** Resolves once EC2 took `id` for termination or does not know it. */
  terminate(id: string, signal: AbortSignal): Promise<void>
}

/** Ids in one TerminateInstances (EC2 takes up to 1,000; fewer keep one failure's reach small). */
const idsPerCall = 100

async function terminateAll(client: EC2Client, ids: string[], signal: AbortSignal) {
  await client.send(new TerminateInstancesCommand({ InstanceIds: ids }), { abortSignal: signal })
}

/** Creates the batched terminations of one client. */
export function createTerminations(client: EC2Client): Terminations {
  const loader = createBatchLoader<string, true>({
    maxKeys: idsPerCall,
    maxInFlight: 2,
    callTimeoutMs: 30_000,
    async run(ids, signal) {
      const done = new Map(ids.map((id) => [id, true as const]))
      try {
        await terminateAll(client, ids, signal)
        return done
      } catch (error) {
        if (!isInstanceNotFound(error)) throw classifyAwsError(error, 'TerminateInstances')
        if (ids.length === 1) return done
      }
      for (const id of ids) {
        await terminateAll(client, [id], signal).catch((error: unknown) => {
          if (!isInstanceNotFound(error)) throw classifyAwsError(error, 'TerminateInstances')
        })
      }
      return done
    },
  })
  return {
    async terminate(id, signal) {
      await loader.load(id, signal)
    },
  }
}
