import { describe, expect, test } from 'vitest'
import { parseParams } from '../../../../demo/playground/panels/consoleParams.ts'

describe('console params field', () => {
  test('empty text means no params', () => {
    expect(parseParams('  \n')).toEqual({ params: [] })
  })

  test('a JSON array is taken as is', () => {
    expect(parseParams('["0xabc", "latest"]')).toEqual({ params: ['0xabc', 'latest'] })
  })

  test('bad JSON names the problem', () => {
    const parsed = parseParams('["latest",')
    expect(parsed).toHaveProperty('error')
    expect((parsed as { error: string }).error).toMatch(/^Params are not valid JSON: /)
  })

  test('JSON that is not an array is refused', () => {
    expect(parseParams('{"a": 1}')).toEqual({ error: 'Params must be a JSON array, e.g. ["latest", false].' })
  })
})
