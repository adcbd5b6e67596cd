import type { Bench } from './lib/bench'

export const webhooksBench: Bench = {
  id: 'webhooks',
  title: 'webhooks (not written yet)',
  async run() {
    throw new Error('webhooks: not written yet')
  },
}
