import type { Bench } from './lib/bench'

export const apiCostBench: Bench = {
  id: 'api-cost',
  title: 'api-cost (not written yet)',
  async run() {
    throw new Error('api-cost: not written yet')
  },
}
