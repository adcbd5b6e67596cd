import { describe, expect, it } from 'vitest'
import { formatMachineTable } from '../../../src/dev/machine-table'

describe('formatMachineTable', () => {
  it('aligns columns, sorts by name and shows <none> for what is not known yet', () => {
    const table = formatMachineTable([
      {
        metadata: { name: 'workers-b' },
        spec: { providerID: 'aws:///eu-west-1a/i-2' },
        status: { phase: 'Running', nodeRef: { name: 'ip-10-0-0-2.ec2.internal' } },
      },
      { metadata: { name: 'workers-a' }, status: { phase: 'Provisioning' } },
    ])
    expect(table).toBe(
      [
        'NAME        PHASE          NODE                       PROVIDERID',
        'workers-a   Provisioning   <none>                     <none>',
        'workers-b   Running        ip-10-0-0-2.ec2.internal   aws:///eu-west-1a/i-2',
      ].join('\n'),
    )
  })

  it('prints only the header when there are no Machines', () => {
    expect(formatMachineTable([])).toBe('NAME   PHASE   NODE   PROVIDERID')
  })
})
