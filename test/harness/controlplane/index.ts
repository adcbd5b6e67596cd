export type { ControlPlane, ControlPlaneOptions } from './control-plane'
export { controlPlaneBinDir, startControlPlane } from './control-plane'
export { kwokNodeSelector, startExtraKwok } from './kwok'
