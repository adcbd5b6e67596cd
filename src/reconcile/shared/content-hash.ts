/**
 * @module Stable, label-safe hashes of JSON values: object keys sorted, so equal values always
 * hash equally whatever order their fields were written in. Pure.
 */
import { createHash } from 'node:crypto'

const alphabet = 'bcdfghjklmnpqrstvwxz2456789'

/** The length of every hash made here. */
export const hashLength = 10

/** JSON with object keys sorted and undefined fields left out. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** A 10-character hash of `value` made only of consonants and digits (safe in labels and names). */
export function shortHash(value: unknown): string {
  const digest = createHash('sha256').update(stableJson(value)).digest()
  let out = ''
  for (let i = 0; i < hashLength; i++) out += alphabet[(digest[i] ?? 0) % alphabet.length]
  return out
}
