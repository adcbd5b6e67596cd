/**
 * @module A slow reconciler, for races between passes: the real client, but its first call's
 * answer is held back until the test releases it (nothing is mocked; the apiserver answered).
 */
import type { KubeClient } from '../../src/kube/kube-client'

/** `kube`, but its first call's answer is held back until `release()`; every later call is plain. */
export function holdAfterFirstCall(kube: KubeClient) {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let answered = () => {}
  const firstAnswered = new Promise<void>((resolve) => {
    answered = resolve
  })
  let calls = 0
  const held = new Proxy(kube, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver)
      if (typeof value !== 'function' || property === 'close') return value
      return async (...args: unknown[]) => {
        const first = calls++ === 0
        const result = await value.apply(target, args)
        if (first) {
          answered()
          await released
        }
        return result
      }
    },
  })
  return { kube: held, firstAnswered, release }
}
