import type { Bench } from './lib/bench'

export const scaleMemoryBench: Bench = {
  id: 'scale-memory',
  title: 'scale-memory (not written yet)',
  async run() {
    throw new Error('scale-memory: not written yet')
  },
}
