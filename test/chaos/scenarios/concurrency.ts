import type { Scenario } from '../lib/scenario'

export const concurrencyScenario: Scenario = {
  id: 'concurrency',
  title: 'concurrency (not written yet)',
  async run() {
    throw new Error('concurrency: not written yet')
  },
}
