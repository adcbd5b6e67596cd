/** @module Every benchmark `npm run bench` runs, in order. */
import { adoptionBench } from './adoption'
import { apiCostBench } from './api-cost'
import { capacityBench } from './capacity'
import { coldStartBench } from './cold-start'
import { drainBench } from './drain'
import { interruptionsBench } from './interruptions'
import { launchesBench } from './launches'
import type { Bench } from './lib/bench'
import { listConversionBench } from './list-conversion'
import { nodeLinkBench } from './node-link'
import { provisioningBench } from './provisioning'
import { scaleMemoryBench } from './scale-memory'
import { webhooksBench } from './webhooks'

export const benches: Bench[] = [
  provisioningBench,
  launchesBench,
  capacityBench,
  apiCostBench,
  nodeLinkBench,
  webhooksBench,
  listConversionBench,
  scaleMemoryBench,
  drainBench,
  coldStartBench,
  interruptionsBench,
  adoptionBench,
]
