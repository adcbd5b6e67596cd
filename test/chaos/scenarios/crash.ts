import type { Scenario } from '../lib/scenario'

export const crashScenario: Scenario = {
  id: 'crash',
  title: 'crash (not written yet)',
  async run() {
    throw new Error('crash: not written yet')
  },
}
