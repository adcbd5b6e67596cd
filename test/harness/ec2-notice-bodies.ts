/**
 * @module EventBridge bodies of EC2 notices for tests, chaos and benchmarks: the documented samples
 * in test/fixtures/ec2-notices, made about another instance, at another time (EventBridge gives
 * seconds) and, when asked, under another event id.
 */
import { readFileSync } from 'node:fs'

/** The instance id the fixtures name. */
const fixtureInstance = 'i-1234567890abcdef0'

/** The fixture `name` (e.g. `spot-interruption`) as it is on disk. */
export function noticeFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/ec2-notices/${name}.json`, import.meta.url), 'utf8')
}

/** The fixture `name` about `instanceId` at `time`, with event id `eventId` when given. */
export function noticeBody(name: string, instanceId: string, time: Date, eventId?: string): string {
  const body = noticeFixture(name)
    .replaceAll(fixtureInstance, instanceId)
    .replace(/"time": "[^"]+"/, `"time": "${time.toISOString().replace(/\.\d+Z$/, 'Z')}"`)
  return eventId === undefined ? body : body.replace(/"id": "[^"]+"/, `"id": "${eventId}"`)
}
