/**
 * @module Publishes object hints to the work-queue stream (the watch bridge and the sweep use it).
 * The payload is only the key: the worker re-reads the object. A hint for a change of the key's
 * own object carries its resourceVersion in a header (see wake.ts), so the worker's runner can
 * tell a run's own writes from anyone else's.
 */
import { JetStreamApiCodes, JetStreamApiError, type JetStreamClient } from '@nats-io/jetstream'
import { headers, type MsgHdrs } from '@nats-io/transport-node'
import { formatKey, type ObjectKey } from '../../kube/object-key'
import type { OwnChangeWake } from '../wake'
import type { JetStreamConfig } from './setup'
import { keySubject } from './subjects'

/** The header naming the version of the key's own object whose change the hint is. */
export const ownVersionHeader = 'Machine-Api-Own-Version'

/** Publishes a hint for `key` (woken by `wake`, if given); resolves once the stream stored it. */
export type KeyPublisher = (key: ObjectKey, wake?: OwnChangeWake) => Promise<void>

/** A publisher onto `config`'s stream. */
export function createKeyPublisher(js: JetStreamClient, config: JetStreamConfig): KeyPublisher {
  return async (key, wake) => {
    const version = wake?.resourceVersion
    const options = version === undefined ? {} : { headers: versionHeaders(version) }
    await js.publish(keySubject(config.subjectPrefix, key), formatKey(key), options)
  }
}

function versionHeaders(version: string): MsgHdrs {
  const h = headers()
  h.set(ownVersionHeader, version)
  return h
}

/** The wake a message carries: a change of its key's own object when it has the header. */
export function wakeOfMessage(msg: { headers?: MsgHdrs | undefined }): OwnChangeWake | undefined {
  const version = msg.headers?.get(ownVersionHeader)
  return version ? { type: 'own-change', resourceVersion: version } : undefined
}

/**
 * A publisher for the periodic sweep: a key that already has a hint stored (waiting, or being
 * reconciled now) gets none. The stored one reconciles from a fresh read anyway, and a publish
 * would replace it at the back of the stream (one message per subject): a sweep re-publishing every
 * key every few seconds kept pushing the keys hinted most often, such as a MachineSet whose
 * Machines all change, behind the rest, and a 100-Machine MachineSet was not reconciled for
 * minutes (chaos, concurrency). Changes keep `createKeyPublisher`: a change must never be dropped
 * because an older hint is in flight.
 */
export function createSweepPublisher(js: JetStreamClient, config: JetStreamConfig): KeyPublisher {
  return async (key) => {
    try {
      // Last sequence 0 for the subject: only when the stream holds no message for this key.
      await js.publish(keySubject(config.subjectPrefix, key), formatKey(key), {
        expect: { lastSubjectSequence: 0 },
      })
    } catch (error) {
      if (
        error instanceof JetStreamApiError &&
        error.code === JetStreamApiCodes.StreamWrongLastSequence
      )
        return
      throw error
    }
  }
}
