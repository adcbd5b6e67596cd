/**
 * @module Publishes object hints to the work-queue stream (the watch bridge and the sweep use it).
 * The payload is only the key: the worker re-reads the object.
 */
import type { JetStreamClient } from '@nats-io/jetstream'
import { formatKey, type ObjectKey } from '../../kube/object-key'
import type { JetStreamConfig } from './setup'
import { keySubject } from './subjects'

/** Publishes a hint for `key`; resolves once the stream stored it. */
export type KeyPublisher = (key: ObjectKey) => Promise<void>

/** A publisher onto `config`'s stream. */
export function createKeyPublisher(js: JetStreamClient, config: JetStreamConfig): KeyPublisher {
  return async (key) => {
    await js.publish(keySubject(config.subjectPrefix, key), formatKey(key))
  }
}
