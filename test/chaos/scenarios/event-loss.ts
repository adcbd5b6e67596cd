import type { Scenario } from '../lib/scenario'

export const eventLossScenario: Scenario = {
  id: 'event-loss',
  title: 'event-loss (not written yet)',
  async run() {
    throw new Error('event-loss: not written yet')
  },
}
