const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture, mine, time } = require('@nomicfoundation/hardhat-network-helpers')

async function deployVault() {
  return { vault: await ethers.deployContract('Vault', [(await time.latest()) + 1000]) }
}

describe('events, logs and bare reverts', function () {
  it('queryFilter finds past events by block range and indexed argument', async function () {
    const { vault } = await loadFixture(deployVault)
    const [owner, other] = await ethers.getSigners()
    const from = await time.latestBlock()
    await owner.sendTransaction({ to: vault, value: 1 })
    await other.sendTransaction({ to: vault, value: 2 })
    await mine(2)
    const all = await vault.queryFilter(vault.filters.Deposited(), from + 1)
    expect(all.map((e) => e.args.amount)).to.deep.equal([1n, 2n])
    const byOther = await vault.queryFilter(vault.filters.Deposited(other.address), from + 1, 'latest')
    expect(byOther.map((e) => e.args.from)).to.deep.equal([other.address])
  })

  it('a listener hears a new event and a new block', async function () {
    const { vault } = await loadFixture(deployVault)
    let hear, see
    const heard = new Promise((resolve) => (hear = resolve))
    const block = new Promise((resolve) => (see = resolve))
    await vault.once('CounterSet', (value) => hear(value))
    await ethers.provider.once('block', (number) => see(number))
    // The listeners poll from a block number they ask for when they start, in the background: on a
    // loaded machine that answer can come after the transaction below is mined (on either network),
    // and then they hear only what comes after it. So the event is sent again until heard, each
    // time in a new block, as a dApp's next event would be.
    await ethers.provider.getBlockNumber()
    let value
    for (let attempt = 0; value === undefined && attempt < 5; attempt++) {
      await vault.setCounter(12)
      value = await Promise.race([heard, new Promise((resolve) => setTimeout(resolve, 5000))])
    }
    expect(value).to.equal(12n)
    expect(await block).to.be.a('number')
    await vault.removeAllListeners()
  })

  it('a revert without reason, in a call and in a sent transaction', async function () {
    const { vault } = await loadFixture(deployVault)
    await expect(vault.fail()).to.be.revertedWithoutReason()
    await expect(vault.fail({ gasLimit: 100_000 })).to.be.revertedWithoutReason()
    await expect(vault.fail({ gasLimit: 100_000 })).to.be.reverted
    expect(await vault.counter()).to.equal(0)
  })
})
