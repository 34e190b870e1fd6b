/**
 * Contracts: write Solidity (or start from an example), compile it in this page (solc in a
 * worker of its own, loaded the first time the panel opens), deploy it from a dev account, then
 * call and transact through forms generated from the ABI. Deployed contracts are listed, and kept
 * across reloads like the chain they live on.
 */
import { encodeDeployData, type Abi } from 'viem'
import type { Panel } from '../panel.ts'
import type { Hex, Session } from '../session.ts'
import { isBusy, setBusy } from '../ui/busy.ts'
import { h, uniqueId } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { accountSelect } from '../contracts/accountSelect.ts'
import { argumentFields, type ArgumentFields } from '../contracts/argumentFields.ts'
import { isDeployable, mainContract, SolidityCompiler, EVM_VERSION, type CompiledContract, type CompileResult, type CompilerState, type Diagnostic } from '../contracts/compiler.ts'
import { deployedView } from '../contracts/deployedView.ts'
import { Deployments } from '../contracts/deployments.ts'
import { sourceEditor } from '../contracts/editor.ts'
import { EXAMPLES, type Example } from '../contracts/examples.ts'
import { chosenSolcVersion, DEFAULT_SOLC_VERSION, isSolcVersion, rememberSolcVersion, SOLC_VERSIONS } from '../contracts/solcVersions.ts'
import { Workspace } from '../contracts/workspace.ts'
import { workspaceControls } from '../contracts/workspaceControls.ts'
import { failureWithReason, followTransaction } from '../contracts/outcome.ts'
import { send } from '../contracts/transactions.ts'
import { abiLibrary } from '../decoding/abiLibrary.ts'
import './contracts.css'

type AbiConstructor = Extract<Abi[number], { type: 'constructor' }>

const DRAFTS_KEY = 'pagenode.playground.contracts.drafts'
/** The user's version an example replaced ("Restore the example"), per example, until brought back or discarded. */
const KEPT_KEY = 'pagenode.playground.contracts.kept'

/** Set once mounted: `show` needs them. */
let mounted: { session: Session; compiler: SolidityCompiler; deployments: Deployments; reveal: (address: string) => void } | undefined

export const contractsPanel: Panel = {
  id: 'contracts',
  title: 'Contracts',
  mount(root, session) {
    const compiler = new SolidityCompiler(chosenSolcVersion())
    const deployments = new Deployments(session.chainId)
    const { elements, reveal } = build(session, compiler, deployments)
    root.append(...elements)
    mounted = { session, compiler, deployments, reveal }
  },
  /** `#contracts/0xabc…` scrolls to that deployed contract's card. */
  show(argument) {
    if (!mounted) return
    // The compiler is 9 MB: fetched when the panel is first opened, not with the page.
    mounted.compiler.load()
    void mounted.deployments.prune(mounted.session)
    if (argument) mounted.reveal(argument)
  },
}

function build(session: Session, compiler: SolidityCompiler, deployments: Deployments): { elements: HTMLElement[]; reveal: (address: string) => void } {
  const drafts = readDrafts()
  const kept = readDrafts(KEPT_KEY)
  let example: Example = EXAMPLES[0]
  /** The workspace file in the editor, or undefined for an example. */
  let ownFile: string | undefined
  let compiled: { result: CompileResult; constructorArgs: Record<string, string> } | undefined
  const workspace = new Workspace()

  // --- source ---
  // One list: the user's files (values `file:<name>`), then the examples (values their ids).
  const exampleSelect = h('select', { id: 'contracts-example', testid: 'example', name: 'example' })
  const showFiles = () => {
    const selected = ownFile === undefined ? example.id : `file:${ownFile}`
    exampleSelect.replaceChildren(
      h('optgroup', { label: 'Your files' }, workspace.names.length === 0 ? h('option', { disabled: true, value: '' }, '(none yet: name one below and press New file)') : workspace.names.map((name) => h('option', { value: `file:${name}` }, name))),
      h('optgroup', { label: 'Examples' }, EXAMPLES.map((e) => h('option', { value: e.id }, `${e.file}: ${e.title}`))),
    )
    exampleSelect.value = selected
  }
  const files = workspaceControls(
    workspace,
    EXAMPLES.map((e) => e.file),
    (name) => (name === undefined ? load(EXAMPLES[0]) : openFile(name)),
  )
  const editor = sourceEditor(() => void compile())
  const compileButton = h('button', { type: 'button', testid: 'compile', onclick: () => void compile() }, 'Compile')
  const restoreButton = h('button', { type: 'button', class: 'secondary', testid: 'restore', onclick: () => restore() }, 'Restore the example')
  // Restoring the example never loses the user's version: it is kept, and can be brought back.
  const keptText = h('span', {})
  const bringBack = h('button', { type: 'button', class: 'secondary', testid: 'bring-back', onclick: () => swapKept() }, 'Undo: bring my version back')
  const discard = h('button', { type: 'button', class: 'secondary', testid: 'discard-kept', onclick: () => discardKept() }, 'Discard my version')
  const keptBar = h('div', { class: 'kept row', role: 'status', testid: 'kept', hidden: true }, keptText, bringBack, discard)
  const progress = h('progress', { class: 'compiler-progress', 'aria-label': 'Loading the compiler', hidden: true })
  // The default is kept offline from the first visit; another is fetched when chosen (then kept too).
  const solcSelect = h(
    'select',
    { id: 'contracts-solc', testid: 'solc-version', name: 'solc' },
    SOLC_VERSIONS.map((version) => h('option', { value: version }, version === DEFAULT_SOLC_VERSION ? `solc ${version} (default)` : `solc ${version}`)),
  )
  solcSelect.value = compiler.version
  solcSelect.addEventListener('change', () => {
    if (!isSolcVersion(solcSelect.value)) return
    rememberSolcVersion(solcSelect.value)
    compiler.use(solcSelect.value)
    // The panel is open: load it now, as on opening, so Compile does not wait for the download.
    compiler.load()
  })
  const compilerStatus = h('p', { class: 'hint compiler-status', testid: 'compiler-status', role: 'status' })
  const diagnostics = h('div', { class: 'diagnostics', testid: 'diagnostics', 'aria-live': 'polite' })

  const sourceLabel = h('label', { for: editor.textarea.id }, 'Solidity source')
  const sourceHint = h('p', { class: 'hint', id: `${editor.textarea.id}-hint` }, 'Tab indents (Esc, then Tab, leaves the editor) · Ctrl+Enter compiles · edits are kept in this browser.')
  editor.textarea.setAttribute('aria-describedby', sourceHint.id)

  // --- deploy ---
  const deploySection = h('section', { class: 'card', testid: 'deploy', 'aria-labelledby': 'contracts-deploy-heading', hidden: true })
  // --- deployed ---
  const deployedList = h('div', { testid: 'deployments' })
  const deployedHeading = h('h3', { id: 'contracts-deployed-heading' }, 'Deployed contracts')

  function load(next: Example): void {
    example = next
    ownFile = undefined
    showFiles()
    files.select(undefined)
    restoreButton.hidden = false
    editor.setText(drafts[next.id] ?? next.source)
    showKept()
  }

  function openFile(name: string): void {
    ownFile = name
    showFiles()
    files.select(name)
    restoreButton.hidden = true
    editor.setText(workspace.read(name) ?? '')
    showKept()
  }

  function showKept(): void {
    const version = ownFile === undefined ? kept[example.id] : undefined
    keptBar.hidden = version === undefined
    if (version !== undefined) keptText.textContent = `${example.file} is the example again; your version (${version.split('\n').length} lines) is kept in this browser.`
  }

  /** The example back in the editor; the user's version kept beside it, never deleted here. */
  function restore(): void {
    const mine = editor.textarea.value
    if (mine !== example.source) {
      kept[example.id] = mine
      writeDrafts(kept, KEPT_KEY)
    }
    delete drafts[example.id]
    writeDrafts(drafts)
    editor.setText(example.source)
    showKept()
    editor.textarea.focus()
  }

  /** The kept version back in the editor; what was there is kept in its place unless it is the example. */
  function swapKept(): void {
    const version = kept[example.id]
    if (version === undefined) return
    const now = editor.textarea.value
    if (now === example.source) delete kept[example.id]
    else kept[example.id] = now
    drafts[example.id] = version
    writeDrafts(drafts)
    writeDrafts(kept, KEPT_KEY)
    editor.setText(version)
    showKept()
    editor.textarea.focus()
  }

  function discardKept(): void {
    delete kept[example.id]
    writeDrafts(kept, KEPT_KEY)
    showKept()
    editor.textarea.focus()
  }

  exampleSelect.addEventListener('change', () => {
    if (exampleSelect.value.startsWith('file:')) openFile(exampleSelect.value.slice('file:'.length))
    else load(EXAMPLES.find((e) => e.id === exampleSelect.value) ?? EXAMPLES[0])
  })
  editor.textarea.addEventListener('input', () => {
    if (ownFile !== undefined) {
      // Refused by the store (a full disk): said where the person looks, the text stays in the editor.
      workspace.write(ownFile, editor.textarea.value).catch((error: unknown) => diagnostics.replaceChildren(failureView(error, 'file-save-error')))
      return
    }
    if (editor.textarea.value === example.source) delete drafts[example.id]
    else drafts[example.id] = editor.textarea.value
    writeDrafts(drafts)
  })

  compiler.onState((state) => showCompilerState(state, compiler.version, compilerStatus, progress))

  async function compile(): Promise<void> {
    if (isBusy(compileButton)) return
    const source = editor.textarea.value
    setBusy(compileButton, true)
    diagnostics.replaceChildren(h('p', { class: 'hint' }, compiler.state.state === 'ready' ? 'Compiling…' : 'Compiling once the compiler has loaded…'))
    try {
      // The file's own name, so that the workspace's files import it and it them by name.
      const result = await compiler.compile(ownFile ?? example.file, source, (path) => workspace.read(path))
      compiled = { result, constructorArgs: ownFile === undefined ? example.constructorArgs : {} }
      // Every ABI compiled here decodes the explorer's and the traces' calls, events and errors.
      void abiLibrary.addCompiled(result.contracts)
      diagnostics.replaceChildren(...diagnosticsView(result, (d) => d.start !== undefined && editor.reveal(d.start, d.end ?? d.start)))
      showDeploy()
    } catch (error) {
      diagnostics.replaceChildren(failureView(error, 'compile-error'))
    } finally {
      setBusy(compileButton, false)
    }
  }

  function showDeploy(): void {
    const result = compiled?.result
    const deployable = result?.contracts.filter(isDeployable) ?? []
    if (!result || deployable.length === 0 || result.diagnostics.some((d) => d.severity === 'error')) {
      deploySection.hidden = true
      return
    }
    deploySection.hidden = false
    const main = mainContract(result.contracts, editor.textarea.value) ?? deployable[0]
    const contractSelect = h('select', { name: 'contract', testid: 'contract' }, deployable.map((c) => h('option', { value: c.name, selected: c === main }, c.name)))
    const from = accountSelect(session, 'Deploy from')
    const argumentsBox = h('div', {})
    const deployButton = h('button', { type: 'submit', testid: 'deploy-button' }, 'Deploy')
    const atAddress = h('input', { type: 'text', name: 'at-address', placeholder: '0x…', autocomplete: 'off', spellcheck: 'false' })
    const atButton = h('button', { type: 'button', class: 'secondary' }, 'Use at this address')
    const result_ = h('div', { class: 'result', testid: 'deploy-result', 'aria-live': 'polite' })
    let fields: ArgumentFields
    const chosen = (): CompiledContract => deployable.find((c) => c.name === contractSelect.value) ?? deployable[0]
    const showArguments = () => {
      const constructor = chosen().abi.find((item): item is AbiConstructor => item.type === 'constructor')
      const defaults = chosen() === main ? (compiled?.constructorArgs ?? {}) : {}
      fields = argumentFields(constructor?.inputs ?? [], constructor?.stateMutability === 'payable', defaults)
      argumentsBox.replaceChildren(constructor && constructor.inputs.length > 0 ? h('p', { class: 'hint' }, 'Constructor arguments') : '', fields.element)
    }
    contractSelect.addEventListener('change', showArguments)
    showArguments()

    const form = h(
      'form',
      { novalidate: true, 'aria-labelledby': 'contracts-deploy-heading' },
      h('div', { class: 'row' }, field('Contract', contractSelect), from.field),
      argumentsBox,
      h('div', { class: 'actions' }, deployButton),
    )
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      if (isBusy(deployButton)) return
      const values = fields.read()
      if (!values) {
        result_.replaceChildren()
        return
      }
      const contract = chosen()
      let data: Hex
      try {
        data = encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args: values.args })
      } catch (error) {
        result_.replaceChildren(failureView(error))
        return
      }
      setBusy(deployButton, true)
      const deployer = from.select.value as Hex
      result_.replaceChildren(h('p', { class: 'hint' }, 'Deploying…'))
      const deploy = (gas?: bigint): Promise<unknown> =>
        send(session, { from: deployer, data, value: values.value, gas })
          .then(async (hash) => {
            const receipt = await followTransaction(result_, session, contract.abi, hash)
            if (receipt?.contractAddress && receipt.status === '0x1') {
              deployments.add({ name: contract.name, address: receipt.contractAddress, abi: contract.abi, transactionHash: hash, deployer })
            }
          })
          .catch((error: unknown) => result_.replaceChildren(failureWithReason(contract.abi, error, gas === undefined ? deploy : undefined)))
      void deploy().finally(() => setBusy(deployButton, false))
    })

    atButton.addEventListener('click', () => {
      const address = atAddress.value.trim()
      const contract = chosen()
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
        result_.replaceChildren(h('p', { class: 'error', role: 'alert' }, 'expected an address: 0x and 40 hex digits'))
        atAddress.focus()
        return
      }
      session
        .request<string>('eth_getCode', [address, 'latest'])
        .then((code) => {
          if (code === '0x') {
            result_.replaceChildren(h('p', { class: 'error', role: 'alert' }, `no contract at ${address} on this chain`))
            return
          }
          deployments.add({ name: contract.name, address: address as Hex, abi: contract.abi, deployer: from.select.value as Hex })
          result_.replaceChildren(h('p', { class: 'ok-text' }, `${contract.name} at ${address} added below.`))
        })
        .catch((error: unknown) => result_.replaceChildren(failureView(error)))
    })

    deploySection.replaceChildren(
      h('h3', { id: 'contracts-deploy-heading' }, 'Deploy'),
      form,
      h('details', { class: 'at-address' }, h('summary', {}, 'Or use the ABI with a contract already deployed'), h('div', { class: 'row' }, field('Contract address', atAddress), h('div', { class: 'actions' }, atButton))),
      result_,
    )
  }

  function showDeployments(): void {
    const list = deployments.all
    deployedHeading.textContent = `Deployed contracts (${list.length})`
    deployedList.replaceChildren(
      ...(list.length === 0
        ? [h('p', { class: 'hint' }, 'Nothing deployed yet: compile a contract and deploy it above.')]
        : list.map((deployment) => deployedView(session, deployment, () => deployments.remove(deployment.address)))),
    )
  }
  deployments.onChange(showDeployments)
  // A deployed contract's own ABI comes first when decoding what is sent to it.
  deployments.onChange(() => {
    for (const deployment of deployments.all) if (abiLibrary.nameOf(deployment.address) === undefined) void abiLibrary.attach(deployment.address, deployment.name, deployment.abi)
  })
  showDeployments()

  // A reset or a revert takes away what the results showed, and the code of later deployments:
  // clear the results, drop those deployments from the list.
  session.onRewind(() => {
    deploySection.querySelector('[data-testid="deploy-result"]')?.replaceChildren()
    for (const result of deployedList.querySelectorAll('[data-testid="result"]')) result.replaceChildren()
    void deployments.prune(session)
  })

  function reveal(address: string): void {
    const card = [...deployedList.querySelectorAll<HTMLElement>('[data-testid="deployment"]')].find((element) => element.dataset.address === address.toLowerCase())
    if (!card) return
    card.scrollIntoView({ block: 'start' })
    // The card itself (tabindex -1), as a skip link's target: Tab goes on into its controls.
    card.focus({ preventScroll: true })
  }

  load(example)
  void workspace.load().then(showFiles, (error: unknown) => console.warn('the workspace could not be read:', error))
  const elements = [
    h('h2', {}, 'Contracts'),
    h('p', { class: 'hint' }, `Solidity compiled in this page (solc in a worker, for the ${EVM_VERSION} EVM the node runs), deployed from a dev account, then called from forms built from the ABI.`),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'contracts-source-heading' },
      h('h3', { id: 'contracts-source-heading' }, 'Source'),
      h('div', { class: 'row' }, field('File', exampleSelect), field('Compiler', solcSelect)),
      files.element,
      h('div', { class: 'field' }, sourceLabel, editor.textarea, editor.position, sourceHint),
      h('div', { class: 'actions' }, compileButton, restoreButton, progress, compilerStatus),
      keptBar,
      diagnostics,
    ),
    deploySection,
    h('section', { 'aria-labelledby': deployedHeading.id }, deployedHeading, deployedList),
  ]
  return { elements, reveal }
}

function field(label: string, control: HTMLElement): HTMLDivElement {
  control.id ||= uniqueId('contracts')
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control)
}

function showCompilerState(state: CompilerState, version: string, status: HTMLElement, progress: HTMLProgressElement): void {
  status.dataset.state = state.state
  progress.hidden = state.state !== 'loading'
  switch (state.state) {
    case 'idle':
      status.textContent = `Compiler: solc ${version}, loaded on first use (9 MB).`
      break
    case 'loading': {
      const mb = (bytes: number) => (bytes / 1048576).toFixed(1)
      if (state.phase === 'initialising') {
        progress.removeAttribute('value')
        status.textContent = `Starting solc ${version} (${mb(state.loaded)} MB loaded)…`
      } else if (state.total && state.total >= state.loaded) {
        progress.max = state.total
        progress.value = state.loaded
        status.textContent = `Loading solc ${version}: ${mb(state.loaded)} of ${mb(state.total)} MB…`
      } else {
        progress.removeAttribute('value')
        status.textContent = `Loading solc ${version}: ${mb(state.loaded)} MB…`
      }
      break
    }
    case 'ready':
      status.textContent = `solc ${state.version} · EVM ${EVM_VERSION}`
      break
    case 'failed':
      status.textContent = `The compiler could not load: ${state.message}`
      break
  }
}

function diagnosticsView(result: CompileResult, reveal: (d: Diagnostic) => void): HTMLElement[] {
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning').length
  const names = result.contracts.filter(isDeployable).map((c) => c.name)
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`
  const seconds = (result.ms / 1000).toFixed(1)
  const summary =
    errors > 0
      ? h('p', { class: 'error', testid: 'compile-summary', role: 'alert', dataset: { state: 'failed' } }, `Compilation failed: ${count(errors, 'error')}${warnings ? `, ${count(warnings, 'warning')}` : ''}.`)
      : h('p', { class: 'ok-text', testid: 'compile-summary', dataset: { state: 'ok' } }, `Compiled in ${seconds} s: ${names.length > 0 ? names.join(', ') : 'nothing to deploy'}${warnings ? ` · ${count(warnings, 'warning')}` : ''}.`)
  if (result.diagnostics.length === 0) return [summary]
  return [
    summary,
    h(
      'ul',
      { class: 'diagnostic-list' },
      result.diagnostics.map((d) =>
        h(
          'li',
          { class: `diagnostic ${d.severity}`, testid: 'diagnostic', dataset: { severity: d.severity, ...(d.line === undefined ? {} : { line: String(d.line) }) } },
          h('span', { class: 'severity' }, d.severity),
          ' ',
          d.line === undefined ? undefined : h('button', { type: 'button', class: 'position', onclick: () => reveal(d), 'aria-label': `Go to line ${d.line}, column ${d.column}` }, `${d.line}:${d.column}`),
          ' ',
          h('span', { class: 'message' }, `${d.kind}: ${d.message}`),
          h('details', {}, h('summary', {}, 'as solc shows it'), h('pre', {}, d.formatted)),
        ),
      ),
    ),
  ]
}

function readDrafts(key = DRAFTS_KEY): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '{}')
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {}
  } catch {
    return {}
  }
}

function writeDrafts(drafts: Record<string, string>, key = DRAFTS_KEY): void {
  try {
    localStorage.setItem(key, JSON.stringify(drafts))
  } catch {
    // storage full or disabled: the draft lives as long as the page
  }
}
