import type { Scenario } from '../lib/scenario'

export const cloudFaultsScenario: Scenario = {
  id: 'cloud-faults',
  title: 'cloud-faults (not written yet)',
  async run() {
    throw new Error('cloud-faults: not written yet')
  },
}
