/** @module Every chaos scenario, in the order `npm run chaos` and the short test run them. */
import type { Scenario } from '../lib/scenario'
import { adoptionScenario } from './adoption'
import { apiserverOutageScenario } from './apiserver-outage'
import { badInputScenario } from './bad-input'
import { capacityScenario } from './capacity'
import { cloudFaultsScenario } from './cloud-faults'
import { concurrencyScenario } from './concurrency'
import { crashScenario } from './crash'
import { driftScenario } from './drift'
import { eventLossScenario } from './event-loss'
import { interruptionsScenario } from './interruptions'

export const scenarios: Scenario[] = [
  crashScenario,
  apiserverOutageScenario,
  eventLossScenario,
  cloudFaultsScenario,
  capacityScenario,
  concurrencyScenario,
  badInputScenario,
  interruptionsScenario,
  driftScenario,
  adoptionScenario,
]
