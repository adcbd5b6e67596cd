import { describe, expect, it } from 'vitest'
import type { ReplacementBackoff } from '../../../../src/reconcile/machine-set/replacement'
import { replicaFailureCondition } from '../../../../src/reconcile/machine-set/replica-failure'
import type { MachineObject } from '../../../../src/reconcile/machine-set/types'
import { machine, t0 } from './builders'

const badAmi = { reason: 'InvalidAMI', message: 'InvalidAMIID.NotFound: ami-0bad' }
const gone = { reason: 'InstanceGone', message: 'the instance is gone' }
const backoff = {
  consecutiveFailures: 2,
  lastReplacementTime: t0.toISOString(),
  nextReplacementTime: new Date(t0.getTime() + 20_000).toISOString(),
}
interface Input {
  failed?: MachineObject[]
  backoff?: ReplacementBackoff
}

describe('replicaFailureCondition', () => {
  it.each<[string, Input, string, string, string]>([
    ['nothing failed', {}, 'False', 'NoFailedMachines', 'No Machine has failed'],
    [
      'a configuration failure names it, what to fix and the pace',
      { failed: [machine('a', { failed: badAmi }), machine('b', { failed: badAmi })], backoff },
      'True',
      'MachinesFailed',
      `2 Machines failed: InvalidAMI: InvalidAMIID.NotFound: ami-0bad; fix MachineClass small; 2 replacement rounds without a Ready Machine, next replacement not before ${backoff.nextReplacementTime}`,
    ],
    [
      'the most common failure is quoted, the others counted',
      {
        failed: [
          machine('a', { failed: gone }),
          machine('b', { failed: badAmi }),
          machine('c', { failed: badAmi }),
        ],
      },
      'True',
      'MachinesFailed',
      '2 Machines failed: InvalidAMI: InvalidAMIID.NotFound: ami-0bad; fix MachineClass small (and 1 Machine for other reasons)',
    ],
    [
      'a vanished instance asks nothing to be fixed',
      { failed: [machine('a', { failed: gone })] },
      'True',
      'MachinesFailed',
      '1 Machine failed: InstanceGone: the instance is gone',
    ],
    [
      'between rounds no Machine is Failed: False, with the pace still shown',
      { backoff },
      'False',
      'NoFailedMachines',
      `No Machine has failed; 2 replacement rounds without a Ready Machine, next replacement not before ${backoff.nextReplacementTime}`,
    ],
  ])('%s', (_name, input, status, reason, message) => {
    expect(replicaFailureCondition(input.failed ?? [], input.backoff, t0)).toEqual({
      type: 'ReplicaFailure',
      status,
      reason,
      message,
    })
  })
})
