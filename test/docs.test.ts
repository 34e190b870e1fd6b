import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { methods } from '../src/core/rpc/methods/index.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string) => readFileSync(join(root, path), 'utf8')

/** README.md and every page under docs/, as paths from the repository root. */
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]

/** Markdown without its fenced code blocks and inline code, where brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '``')
}

/** Targets of the page's inline links and images: `[text](target)`, `![alt](target "title")`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1])
}

/** The anchors GitHub gives a page's headings: lowercase, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
  for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

test('the method tables of docs/methods.md list exactly the methods the node serves', () => {
  const documented = [...read('docs/methods.md').matchAll(/^\| `([a-z0-9]+_[A-Za-z0-9_]+)` \|/gm)].map((m) => m[1])
  expect(new Set(documented).size, 'a method listed twice').toBe(documented.length)
  expect(documented.sort()).toEqual(Object.keys(methods).sort())
})

describe('every relative link in README.md and docs/ resolves', () => {
  test.each(pages)('%s', (page) => {
    const broken: string[] = []
    for (const target of linkTargets(read(page))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:, data:, …
      const [path, anchor] = target.split('#', 2)
      const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path))
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${relative(root, file)}`)
        continue
      }
      if (anchor !== undefined && file.endsWith('.md') && statSync(file).isFile() && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${relative(root, file)}`)
      }
    }
    expect(broken).toEqual([])
  })
})
