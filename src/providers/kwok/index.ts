/** @module The `kwok` provider (simulated machines). */
export { createKwokActuator } from './actuator'
export { kubeNodeWriter } from './kube-node-writer'
export {
  kwokKeys,
  kwokNodeAnnotation,
  kwokNodeName,
  kwokProviderID,
  simulatedNode,
} from './node'
export type { NodeWriter, ObservedNode, SimulatedNode } from './node-writer'
export { createKwokProvider } from './provider'
export { type KwokProviderSpec, kwokProviderSpecSchema } from './spec'
