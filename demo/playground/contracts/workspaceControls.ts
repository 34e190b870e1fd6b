/**
 * The workspace's controls beside the file list: a name field, New file, Rename and Delete, and
 * after a delete an Undo that puts the file back as it was. Name problems are said under the
 * field (and leave the files as they were).
 */
import { h, uniqueId } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import type { Workspace, WorkspaceFile } from './workspace.ts'

/** A new file's text: what solc asks of every file, nothing more. */
export const NEW_FILE = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n\n'

export interface WorkspaceControls {
  element: HTMLElement
  /** The file in the editor: Rename and Delete act on it (none for an example). */
  select(name: string | undefined): void
}

export function workspaceControls(
  workspace: Workspace,
  reserved: readonly string[],
  /** A file was made, renamed, deleted or brought back: show `name` (undefined: the first example). */
  changed: (name: string | undefined) => void,
): WorkspaceControls {
  let current: string | undefined
  const name = h('input', { type: 'text', id: uniqueId('file-name'), name: 'file-name', testid: 'file-name', placeholder: 'MyContract.sol', autocomplete: 'off', spellcheck: 'false' })
  const problem = h('div', { 'aria-live': 'polite' })
  const deleted = h('div', { class: 'kept row', role: 'status', testid: 'file-deleted', hidden: true })
  const create = h('button', { type: 'button', class: 'secondary', testid: 'file-new' }, 'New file')
  const rename = h('button', { type: 'button', class: 'secondary', testid: 'file-rename' }, 'Rename')
  const remove = h('button', { type: 'button', class: 'secondary', testid: 'file-delete' }, 'Delete')

  const refuse = (message: string) => {
    problem.replaceChildren(h('p', { class: 'field-error', role: 'alert', testid: 'file-problem' }, message))
    name.focus()
  }
  const run = (work: () => Promise<void>) => {
    problem.replaceChildren()
    work().catch((error: unknown) => problem.replaceChildren(failureView(error)))
  }
  const wanted = (): string | undefined => {
    const value = name.value.trim()
    const why = workspace.problemWith(value, reserved)
    if (why) refuse(why)
    return why ? undefined : value
  }

  create.addEventListener('click', () => {
    const file = wanted()
    if (file) run(async () => {
      await workspace.write(file, NEW_FILE)
      name.value = ''
      changed(file)
    })
  })
  rename.addEventListener('click', () => {
    if (current === undefined) return refuse('Only your own files can be renamed: this is an example.')
    const from = current
    const to = wanted()
    if (to) run(async () => {
      await workspace.rename(from, to)
      name.value = ''
      changed(to)
    })
  })
  remove.addEventListener('click', () => {
    if (current === undefined) return refuse('Only your own files can be deleted: this is an example.')
    const target = current
    run(async () => {
      const file = await workspace.remove(target)
      if (file) showDeleted(file)
      changed(workspace.names[0])
    })
  })

  function showDeleted(file: WorkspaceFile): void {
    const undo = h('button', { type: 'button', class: 'secondary', testid: 'file-undo' }, `Undo: bring ${file.name} back`)
    undo.addEventListener('click', () =>
      run(async () => {
        if (workspace.has(file.name)) return refuse(`${file.name} exists again: rename that one first`)
        await workspace.write(file.name, file.content)
        deleted.hidden = true
        changed(file.name)
      }),
    )
    deleted.replaceChildren(h('span', {}, `${file.name} deleted (${file.content.split('\n').length} lines).`), undo)
    deleted.hidden = false
    undo.focus()
  }

  const element = h(
    'div',
    { class: 'workspace' },
    h('div', { class: 'row' }, h('div', { class: 'field' }, h('label', { for: name.id }, 'File name'), name), h('div', { class: 'actions' }, create, rename, remove)),
    problem,
    deleted,
  )
  return {
    element,
    select(file) {
      current = file
      rename.setAttribute('aria-disabled', String(file === undefined))
      remove.setAttribute('aria-disabled', String(file === undefined))
    },
  }
}
