/** @module Builds a Measurement from raw samples: the median and its ratio to a limit. */
import type { Measurement } from './bench'
import { median, round } from './stats'

export function measurement(
  name: string,
  unit: string,
  samples: number[],
  limit?: { name: string; samples: number[] } | { name: string; value: number },
  note?: string,
): Measurement {
  const value = round(median(samples), 3)
  const m: Measurement = { name, unit, value, samples: samples.map((s) => round(s, 3)) }
  if (limit) {
    const limitValue = 'value' in limit ? limit.value : round(median(limit.samples), 3)
    m.limit = { name: limit.name, value: limitValue }
    if (limitValue !== 0) m.ratio = round(value / limitValue, 3)
  }
  if (note) m.note = note
  return m
}
