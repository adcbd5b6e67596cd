import type { Bench } from './lib/bench'

export const coldStartBench: Bench = {
  id: 'cold-start',
  title: 'cold-start (not written yet)',
  async run() {
    throw new Error('cold-start: not written yet')
  },
}
