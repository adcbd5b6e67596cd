import type { Bench } from './lib/bench'

export const provisioningBench: Bench = {
  id: 'provisioning',
  title: 'provisioning (not written yet)',
  async run() {
    throw new Error('provisioning: not written yet')
  },
}
