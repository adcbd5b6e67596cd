/** @module `machine-api crds`: prints the CustomResourceDefinitions generated from src/api. */
import { stringify } from 'yaml'
import { KIND_DEFINITIONS } from '../../api/kinds'
import { generateCrd } from '../../crd/generate'
import type { CliCommand } from '../command'

/** Every kind's CRD as one multi-document YAML stream (what infra/crds holds). */
export function renderCrdStream(): string {
  return KIND_DEFINITIONS.map((d) => stringify(generateCrd(d), { lineWidth: 0 })).join('---\n')
}

/** `crds`: print the CRDs, e.g. `machine-api crds | kubectl apply -f -`. */
export const crdsCommand: CliCommand = {
  name: 'crds',
  summary: 'print the CustomResourceDefinitions as YAML',
  description:
    'Prints the CRDs of Machine, MachineSet, MachineDeployment, MachineHealthCheck and MachineClass, generated from the zod schemas (both versions, conversion through the in-cluster webhook Service machine-api-system/machine-api-webhook).\nExample: machine-api crds | kubectl apply --server-side -f -',
  flags: {},
  async run(_values, io) {
    io.stdout(renderCrdStream())
    return 0
  },
}
