import type { Scenario } from '../lib/scenario'

export const apiserverOutageScenario: Scenario = {
  id: 'apiserver-outage',
  title: 'apiserver-outage (not written yet)',
  async run() {
    throw new Error('apiserver-outage: not written yet')
  },
}
