import type { Bench } from './lib/bench'

export const drainBench: Bench = {
  id: 'drain',
  title: 'drain (not written yet)',
  async run() {
    throw new Error('drain: not written yet')
  },
}
