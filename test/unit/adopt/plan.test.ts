/**
 * The adoption planner, pass by pass as a resumed run sees the world: pause before any write,
 * class and paused deployment before Machines, Machines (with the instance's providerID) before
 * tags, the set only once every Machine exists, release only of Machines Running on their Node.
 */
import { describe, expect, it } from 'vitest'
import type { InstanceFacts } from '../../../src/adopt/instances'
import { type AdoptStep, planAdoption, targetProblems } from '../../../src/adopt/plan'
import { planRollback, rollbackProblems } from '../../../src/adopt/plan-rollback'
import { sourceTypes } from '../../../src/adopt/source-types'
import { type SourceState, sourceKey, type TargetState } from '../../../src/adopt/state'
import { classManifest, setManifest } from '../../../src/adopt/targets'
import { ADOPTED_FROM, type AdoptionUnit } from '../../../src/adopt/unit'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'

const title = 'MachineSet.machine.openshift.io/openshift-machine-api/infra-a'
const setRef = {
  type: sourceTypes.openshiftSet,
  namespace: 'openshift-machine-api',
  name: 'infra-a',
}
const machineRef = (name: string) => ({
  type: sourceTypes.openshiftMachine,
  namespace: 'openshift-machine-api',
  name,
})

function instance(id: string, zone = 'eu-west-1a'): InstanceFacts {
  return {
    id,
    state: 'running',
    zone,
    region: 'eu-west-1',
    securityGroupIds: [],
    spot: false,
    tags: {},
  }
}

const unit: AdoptionUnit = {
  title,
  namespace: 'fleet',
  pause: [setRef],
  releaseAfter: [setRef],
  machineClass: classManifest('infra-a', { region: 'eu-west-1' }, title, { namespace: 'fleet' }),
  set: setManifest({
    name: 'infra-a',
    className: 'infra-a',
    replicas: 2,
    source: title,
    labels: {},
    namespace: 'fleet',
  }),
  machines: ['m-1', 'm-2'].map((name, i) => ({
    name,
    instance: instance(`i-0${i + 1}`),
    nodeName: `node-${i + 1}`,
    release: [machineRef(name)],
  })),
  problems: [],
  notes: [],
}

const present: SourceState = {
  present: true,
  paused: true,
  finalizers: ['machine.machine.openshift.io'],
}

function state(over: Partial<TargetState> = {}): TargetState {
  return {
    sources: new Map(
      [setRef, machineRef('m-1'), machineRef('m-2')].map((r) => [sourceKey(r), present]),
    ),
    machines: new Map(),
    instanceOwners: new Map(),
    nodes: new Map(),
    ...over,
  }
}

function machine(name: string, uid: string, phase?: string, node?: string): MachineObject {
  return {
    metadata: { name, namespace: 'fleet', uid, annotations: { [ADOPTED_FROM]: title } },
    ...(phase
      ? {
          status: {
            phase: phase as 'Running',
            ...(node ? { nodeRef: { kind: 'Node', name: node } } : {}),
          },
        }
      : {}),
  } as MachineObject
}

const kinds = (steps: AdoptStep[]) =>
  steps.map((s) => (s.type === 'create' ? `create ${String(s.object.kind)}` : s.type))

const classObject = { metadata: { name: 'infra-a', annotations: { [ADOPTED_FROM]: title } } }
const setObject = {
  ...(unit.set as object),
  metadata: { name: 'infra-a', annotations: { [ADOPTED_FROM]: title } },
}

describe('planAdoption', () => {
  it.each([
    {
      name: 'pauses the source before anything is written',
      state: state({ sources: new Map([[sourceKey(setRef), { ...present, paused: false }]]) }),
      want: ['pause'],
    },
    { name: 'creates the class once paused', state: state(), want: ['create MachineClass'] },
    {
      name: 'creates every Machine once the class exists',
      state: state({ machineClass: classObject }),
      want: ['create Machine', 'create Machine'],
    },
    {
      name: 'tags the instance of a Machine that exists',
      state: state({
        machineClass: classObject,
        machines: new Map([['m-1', machine('m-1', 'u1')]]),
      }),
      want: ['tag-instance', 'create Machine'],
    },
    {
      name: 'creates the set only when every Machine exists and is tagged',
      state: state({
        machineClass: classObject,
        machines: new Map([
          ['m-1', machine('m-1', 'u1')],
          ['m-2', machine('m-2', 'u2')],
        ]),
        instanceOwners: new Map([
          ['i-01', { uid: 'u1' }],
          ['i-02', { uid: 'u2' }],
        ]),
      }),
      want: ['create MachineSet'],
    },
    {
      name: 'releases only the source Machine whose Machine runs on its Node',
      state: state({
        machineClass: classObject,
        set: setObject as never,
        machines: new Map([
          ['m-1', machine('m-1', 'u1', 'Running', 'node-1')],
          ['m-2', machine('m-2', 'u2', 'Provisioned')],
        ]),
        instanceOwners: new Map([
          ['i-01', { uid: 'u1' }],
          ['i-02', { uid: 'u2' }],
        ]),
      }),
      want: ['release'],
    },
  ])('$name', ({ state: s, want }) => {
    expect(kinds(planAdoption(unit, s).steps)).toEqual(want)
  })

  it('gives the new Machine the instance as its providerID and zone, not owned yet', () => {
    const plan = planAdoption(unit, state({ machineClass: classObject }))
    const created = plan.steps[0]
    expect(created?.type).toBe('create')
    const object = (created as unknown as { object: MachineObject }).object
    expect(object.spec?.providerID).toBe('aws:///eu-west-1a/i-01')
    expect(object.spec?.failureDomain).toBe('eu-west-1a')
    expect(object.metadata.ownerReferences).toBeUndefined()
    expect(object.metadata.labels?.['machine-api.dev/set-name']).toBe('infra-a')
  })

  it('is done once every source object is released', () => {
    const gone: SourceState = { present: false, paused: false, finalizers: [] }
    const s = state({
      sources: new Map(
        [setRef, machineRef('m-1'), machineRef('m-2')].map((r) => [sourceKey(r), gone]),
      ),
      machineClass: classObject,
      set: setObject as never,
      machines: new Map([
        ['m-1', machine('m-1', 'u1', 'Running', 'node-1')],
        ['m-2', machine('m-2', 'u2', 'Running', 'node-2')],
      ]),
      instanceOwners: new Map([
        ['i-01', { uid: 'u1' }],
        ['i-02', { uid: 'u2' }],
      ]),
    })
    expect(planAdoption(unit, s)).toMatchObject({ steps: [], done: true })
  })

  it('stops at a Failed Machine instead of releasing its source', () => {
    const failed = {
      ...machine('m-1', 'u1'),
      status: { phase: 'Failed', failureReason: 'InstanceGone' },
    } as MachineObject
    const plan = planAdoption(
      unit,
      state({
        machineClass: classObject,
        set: setObject as never,
        machines: new Map([
          ['m-1', failed],
          ['m-2', machine('m-2', 'u2')],
        ]),
        instanceOwners: new Map([
          ['i-01', { uid: 'u1' }],
          ['i-02', { uid: 'u2' }],
        ]),
      }),
    )
    expect(plan.failed).toContain('InstanceGone')
    expect(plan.steps).toEqual([])
  })
})

describe('targetProblems', () => {
  it.each([
    {
      name: 'an instance another machine-api Machine owns',
      state: state({
        instanceOwners: new Map([['i-01', { uid: 'other', name: 'x', namespace: 'y' }]]),
      }),
      want: 'instance i-01: tags.machine-api.dev/machine-uid: is owned by machine-api Machine y/x',
    },
    {
      name: 'a Machine of that name not made by this adoption',
      state: state({ machines: new Map([['m-1', { metadata: { name: 'm-1', uid: 'u' } }]]) }),
      want: 'Machine.machine-api.dev/fleet/m-1: metadata.name: already exists and was not made by adopting',
    },
    {
      name: 'a Node linked to another Machine',
      state: state({
        nodes: new Map([['node-2', { name: 'node-2', linkedMachine: 'fleet/other' }]]),
      }),
      want: 'Node/node-2: metadata.annotations: is linked to machine-api Machine fleet/other',
    },
  ])('refuses $name', ({ state: s, want }) => {
    const messages = targetProblems(unit, s).map((p) => `${p.object}: ${p.path}: ${p.message}`)
    expect(messages.join('\n')).toContain(want)
  })
})

describe('planRollback', () => {
  it('orphans the set first, then untags and removes each Machine, then unpauses the source', () => {
    const tagged = state({
      machineClass: classObject,
      set: setObject as never,
      machines: new Map([['m-1', machine('m-1', 'u1')]]),
      instanceOwners: new Map([['i-01', { uid: 'u1' }]]),
    })
    expect(planRollback(unit, tagged).steps.map((s) => s.type)).toEqual(['disable-set-create'])
    const disabled = {
      ...setObject,
      metadata: {
        ...setObject.metadata,
        annotations: {
          ...setObject.metadata.annotations,
          'machine-api.dev/disable-machine-create': 'true',
        },
      },
    }
    expect(
      planRollback(unit, { ...tagged, set: disabled as never }).steps.map((s) => s.type),
    ).toEqual(['delete-orphaning'])
    const noSet = { ...tagged, set: undefined }
    expect(planRollback(unit, noSet).steps.map((s) => s.type)).toEqual(['untag-instance'])
    const untagged = { ...noSet, instanceOwners: new Map() }
    expect(planRollback(unit, untagged).steps.map((s) => s.type)).toEqual(['remove-machine'])
    const bare = { ...untagged, machines: new Map(), machineClass: undefined }
    expect(planRollback(unit, bare).steps.map((s) => s.type)).toEqual(['unpause'])
  })

  it('refuses once a source Machine was released', () => {
    const released = state()
    ;(released.sources as Map<string, SourceState>).set(sourceKey(machineRef('m-1')), {
      present: false,
      paused: false,
      finalizers: [],
    })
    expect(rollbackProblems(unit, released)[0]?.message).toContain(
      'was released to machine-api Machine fleet/m-1',
    )
  })
})
