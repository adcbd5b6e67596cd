import { describe, expect, it } from 'vitest'
import { createClientPool } from '../../../../src/providers/aws/client-pool'

const a = { accessKeyId: 'A', secretAccessKey: 'a' }
const b = { accessKeyId: 'B', secretAccessKey: 'b' }

describe('createClientPool', () => {
  it('reuses one client per region and credentials', () => {
    const pool = createClientPool({ endpoint: 'http://127.0.0.1:9' })
    expect(pool.get('eu-west-1', a)).toBe(pool.get('eu-west-1', { ...a }))
    expect(pool.get('eu-west-1', a)).not.toBe(pool.get('eu-west-1', b))
    expect(pool.get('eu-west-1', a)).not.toBe(pool.get('us-east-1', a))
    expect(pool.get('eu-west-1', undefined)).toBe(pool.get('eu-west-1', undefined))
    pool.close()
  })

  it('builds a new client for rotated credentials and evicts beyond the limit', () => {
    const pool = createClientPool({ maxClients: 1 })
    const first = pool.get('eu-west-1', a)
    pool.get('eu-west-1', b)
    // `a` was evicted (and destroyed); asking again builds a fresh client.
    expect(pool.get('eu-west-1', a)).not.toBe(first)
    pool.close()
  })
})
