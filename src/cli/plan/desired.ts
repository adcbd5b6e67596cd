/**
 * @module The desired object of `plan`: the manifest read from a file, converted to v1beta1,
 * defaulted and validated as the admission webhook would, on top of the live object's identity.
 */
import { readFileSync } from 'node:fs'
import { parseAllDocuments } from 'yaml'
import { convertObject } from '../../api/conversion/convert'
import { defaultObject } from '../../api/defaults/default-object'
import { HUB_API_VERSION } from '../../api/group'
import { validateObject } from '../../api/validation/validate'
import { builtInProviderSpecSchemas } from '../../providers/schemas'

/** The kinds `plan` understands. */
export type PlannedKind = 'MachineDeployment' | 'MachineSet'

type Raw = Record<string, unknown>

/** A manifest `plan` cannot work with (exit code 1, the message says why). */
export class ManifestError extends Error {
  override readonly name = 'ManifestError'
}

/** The one MachineSet or MachineDeployment in `file` (YAML or JSON, possibly multi-document). */
export function readManifest(file: string): { kind: PlannedKind; object: Raw } {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ManifestError(`cannot read ${file}: ${(error as Error).message}`)
  }
  // YAML 1.1, as kubectl reads it: `name: y` is a boolean there, and so it must be here.
  const docs = parseAllDocuments(text, { version: '1.1' })
  const objects: Raw[] = []
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) throw new ManifestError(`${file}: ${doc.errors[0]?.message}`)
    const value = doc.toJS() as unknown
    if (value && typeof value === 'object' && !Array.isArray(value)) objects.push(value as Raw)
  }
  const planned = objects.filter((o) => o.kind === 'MachineDeployment' || o.kind === 'MachineSet')
  if (planned.length !== 1) {
    throw new ManifestError(
      `${file} must hold exactly one MachineDeployment or MachineSet, found ${planned.length}`,
    )
  }
  const object = planned[0] as Raw
  try {
    return { kind: object.kind as PlannedKind, object: convertObject(object, HUB_API_VERSION) }
  } catch (error) {
    throw new ManifestError(`${file}: ${(error as Error).message}`)
  }
}

/**
 * The object as the apiserver would store it after `kubectl apply`: defaults applied (replicas
 * left out keep the live value), validated, with the live object's uid and generation. Throws
 * ManifestError listing every field error the webhook would report.
 */
export function desiredObject(
  kind: PlannedKind,
  manifest: Raw,
  context: { live: Raw | undefined; namespace: string },
): Raw {
  const { live, namespace } = context
  const meta = (manifest.metadata ?? {}) as Raw
  const withNamespace = { ...manifest, metadata: { ...meta, namespace } }
  const object = defaultObject(kind, withNamespace, live)
  const errors = validateObject(kind, object, live, { providerSchemas: builtInProviderSpecSchemas })
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path}: ${e.message}`).join('\n')
    throw new ManifestError(`the admission webhook would reject this ${kind}:\n${lines}`)
  }
  const liveMeta = (live?.metadata ?? {}) as Raw
  object.metadata = {
    ...(object.metadata as Raw),
    uid: liveMeta.uid ?? `planned-${String(meta.name)}`,
    generation: liveMeta.generation ?? 1,
    ...(liveMeta.creationTimestamp ? { creationTimestamp: liveMeta.creationTimestamp } : {}),
  }
  return object
}
