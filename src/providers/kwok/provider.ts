/** @module The `kwok` provider: simulated machines for tests, benchmarks and the cloudless demo. */
import type { Provider } from '../registry'
import { createKwokActuator } from './actuator'
import type { NodeWriter } from './node-writer'
import { kwokProviderSpecSchema } from './spec'

/**
 * The `kwok` provider; `nodes` is the caller's Node client (see NodeWriter).
 * @example createProviderRegistry([createKwokProvider({ nodes: clientNodeWriter(kc) })])
 */
export function createKwokProvider(options: { nodes: NodeWriter }): Provider {
  return {
    name: 'kwok',
    specSchema: kwokProviderSpecSchema,
    actuator: createKwokActuator(options.nodes),
  }
}
