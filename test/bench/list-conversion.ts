import type { Bench } from './lib/bench'

export const listConversionBench: Bench = {
  id: 'list-conversion',
  title: 'list-conversion (not written yet)',
  async run() {
    throw new Error('list-conversion: not written yet')
  },
}
