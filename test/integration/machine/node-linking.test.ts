/**
 * Finding a Machine's Node against a real apiserver, counting the requests it takes: one GET of
 * the Node its provider names, joined or not, and the paged list of every Node only for a
 * provider that names none or a Node of that name that is another instance's.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import { coreTypes } from '../../../src/kube/resource'
import { findNode } from '../../../src/reconcile/machine/node-linking'
import { ignoreNotFound, testKubeConfig, uniqueName } from '../../harness/kube'

const kc = testKubeConfig()
const admin = createKubeClient(createHttpTransport(kc, () => {}))

/** A client that records each request as `verb resource`. */
function countingClient(): { kube: ReturnType<typeof createKubeClient>; calls: string[] } {
  const calls: string[] = []
  const kube = createKubeClient(
    createHttpTransport(kc, (call) => calls.push(`${call.verb} ${call.resource}`)),
  )
  onTestFinished(() => kube.close())
  return { kube, calls }
}

async function joinedNode(providerID: string): Promise<string> {
  const name = uniqueName('link')
  await admin.create(coreTypes.node, { metadata: { name }, spec: { providerID } })
  onTestFinished(() => admin.delete(coreTypes.node, { name }).then(() => {}, ignoreNotFound))
  return name
}

describe('finding the Node of a Machine', () => {
  it('GETs the Node its provider names, and nothing else', async () => {
    const providerID = `test:///${uniqueName('i')}`
    const name = await joinedNode(providerID)
    const { kube, calls } = countingClient()
    const node = await findNode(kube, { providerID, nodeName: name, addresses: [] })
    expect(node?.metadata?.name).toBe(name)
    expect(calls).toEqual(['get nodes'])
  })

  it('takes a named Node that has not joined yet for not joined, with one GET', async () => {
    await joinedNode(`test:///${uniqueName('i')}`)
    const { kube, calls } = countingClient()
    const lookup = { providerID: `test:///${uniqueName('i')}`, nodeName: uniqueName('absent') }
    expect(await findNode(kube, { ...lookup, addresses: [] })).toBeUndefined()
    expect(calls).toEqual(['get nodes'])
  })

  it('takes a named Node whose providerID is not set yet for not joined, with one GET', async () => {
    const name = uniqueName('link')
    await admin.create(coreTypes.node, { metadata: { name } })
    onTestFinished(() => admin.delete(coreTypes.node, { name }).then(() => {}, ignoreNotFound))
    const { kube, calls } = countingClient()
    const lookup = { providerID: `test:///${uniqueName('i')}`, nodeName: name, addresses: [] }
    expect(await findNode(kube, lookup)).toBeUndefined()
    expect(calls).toEqual(['get nodes'])
  })

  it('pages through the Nodes when the provider names none', async () => {
    const providerID = `test:///${uniqueName('i')}`
    const name = await joinedNode(providerID)
    const { kube, calls } = countingClient()
    expect((await findNode(kube, { providerID, addresses: [] }))?.metadata?.name).toBe(name)
    expect(calls).toContain('list nodes')
    expect(calls).not.toContain('get nodes')
  })

  it('looks further when the named Node carries another providerID', async () => {
    const providerID = `test:///${uniqueName('i')}`
    const ours = await joinedNode(providerID)
    const stale = await joinedNode(`test:///${uniqueName('old')}`)
    const { kube, calls } = countingClient()
    const node = await findNode(kube, { providerID, nodeName: stale, addresses: [] })
    expect(node?.metadata?.name).toBe(ours)
    expect(calls).toEqual(expect.arrayContaining(['get nodes', 'list nodes']))
  })
})
