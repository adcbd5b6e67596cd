/**
 * @module Which provider actuates a Machine and with what spec: the inline `spec.providerSpec`, or
 * the MachineClass named by `spec.classRef`. Pure; the reconcile reads the class.
 */
import type { Machine } from '../../api/v1beta1/machine'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { SecretRef } from '../../providers/actuator'

export type ProviderResolution =
  | {
      ok: true
      provider: string
      providerSpec: unknown
      credentialsSecretRef?: SecretRef
      userDataSecretRef?: SecretRef
    }
  | { ok: false; reason: 'MachineClassNotFound' | 'NoProvider'; message: string }

/**
 * Resolves the provider of `machine`. `machineClass` is the class `spec.classRef` names, or
 * undefined when it does not exist (or the Machine has no classRef).
 */
export function resolveProvider(
  machine: Machine,
  machineClass: MachineClass | undefined,
): ProviderResolution {
  const spec = machine.spec
  if (spec.providerSpec) {
    return { ok: true, provider: spec.providerSpec.provider, providerSpec: spec.providerSpec.value }
  }
  if (spec.classRef) {
    if (!machineClass) {
      return {
        ok: false,
        reason: 'MachineClassNotFound',
        message: `MachineClass ${spec.classRef.name} does not exist in namespace ${machine.metadata.namespace}; create it or change spec.classRef`,
      }
    }
    const cls = machineClass.spec
    return {
      ok: true,
      provider: cls.provider,
      providerSpec: cls.providerSpec,
      ...(cls.credentialsSecretRef
        ? { credentialsSecretRef: { name: cls.credentialsSecretRef.name } }
        : {}),
      ...(cls.userDataSecretRef ? { userDataSecretRef: { name: cls.userDataSecretRef.name } } : {}),
    }
  }
  return {
    ok: false,
    reason: 'NoProvider',
    message: 'set spec.providerSpec or spec.classRef to name the provider',
  }
}
