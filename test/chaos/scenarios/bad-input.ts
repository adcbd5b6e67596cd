import type { Scenario } from '../lib/scenario'

export const badInputScenario: Scenario = {
  id: 'bad-input',
  title: 'bad-input (not written yet)',
  async run() {
    throw new Error('bad-input: not written yet')
  },
}
