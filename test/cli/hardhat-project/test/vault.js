const { expect } = require('chai')
const { ethers } = require('hardhat')
const {
  loadFixture,
  time,
  mine,
  impersonateAccount,
  stopImpersonatingAccount,
  setBalance,
  setCode,
  setStorageAt,
  getStorageAt,
  setNextBlockBaseFeePerGas,
  takeSnapshot,
} = require('@nomicfoundation/hardhat-network-helpers')
const { PANIC_CODES } = require('@nomicfoundation/hardhat-chai-matchers/panic')
const { anyValue } = require('@nomicfoundation/hardhat-chai-matchers/withArgs')

const ONE_YEAR = 365 * 24 * 60 * 60
const LOCKED = ethers.parseEther('1')

async function deployVault() {
  const [owner, other] = await ethers.getSigners()
  const unlockTime = (await time.latest()) + ONE_YEAR
  const vault = await ethers.deployContract('Vault', [unlockTime], { value: LOCKED })
  return { vault, unlockTime, owner, other }
}

describe('Vault', function () {
  describe('deployment', function () {
    it('sets the unlock time and the owner, and holds the ether', async function () {
      const { vault, unlockTime, owner } = await loadFixture(deployVault)
      expect(await vault.unlockTime()).to.equal(unlockTime)
      expect(await vault.owner()).to.equal(owner.address)
      expect(await ethers.provider.getBalance(vault)).to.equal(LOCKED)
    })

    it('refuses an unlock time in the past with its require message', async function () {
      const latest = await time.latest()
      const Vault = await ethers.getContractFactory('Vault')
      await expect(Vault.deploy(latest, { value: 1 })).to.be.revertedWith('Unlock time should be in the future')
    })
  })

  describe('withdrawals', function () {
    it('reverts with TooEarly before the unlock time', async function () {
      const { vault, unlockTime } = await loadFixture(deployVault)
      await expect(vault.withdraw()).to.be.revertedWithCustomError(vault, 'TooEarly').withArgs(anyValue, unlockTime)
    })

    it('reverts with NotOwner for another account', async function () {
      const { vault, unlockTime, other } = await loadFixture(deployVault)
      await time.increaseTo(unlockTime)
      await expect(vault.connect(other).withdraw()).to.be.revertedWithCustomError(vault, 'NotOwner').withArgs(other.address)
    })

    it('pays the owner once the unlock time has come, and says so', async function () {
      const { vault, unlockTime, owner } = await loadFixture(deployVault)
      await time.increaseTo(unlockTime)
      await expect(vault.withdraw()).to.changeEtherBalances([owner, vault], [LOCKED, -LOCKED])
    })

    it('emits Withdrawn with the block time', async function () {
      const { vault, unlockTime, owner } = await loadFixture(deployVault)
      await time.increaseTo(unlockTime)
      await time.setNextBlockTimestamp(unlockTime + 100)
      await expect(vault.withdraw()).to.emit(vault, 'Withdrawn').withArgs(owner.address, LOCKED, unlockTime + 100)
    })

    it('receives ether with an event and a balance change', async function () {
      const { vault, other } = await loadFixture(deployVault)
      const tx = other.sendTransaction({ to: vault, value: 5 })
      await expect(tx).to.emit(vault, 'Deposited').withArgs(other.address, 5)
      await expect(tx).to.changeEtherBalance(vault, 5)
    })

    it('refuses to pay more than it holds', async function () {
      const { vault, other } = await loadFixture(deployVault)
      await expect(vault.pay(other, LOCKED + 1n)).to.be.revertedWith('Not enough ether')
      await expect(vault.pay(other, 7)).to.changeEtherBalances([vault, other], [-7, 7])
    })
  })

  describe('panics', function () {
    it('division by zero, overflow and an index out of bounds', async function () {
      const { vault } = await loadFixture(deployVault)
      await expect(vault.divide(1, 0)).to.be.revertedWithPanic(PANIC_CODES.DIVISION_BY_ZERO)
      await expect(vault.add(ethers.MaxUint256, 1)).to.be.revertedWithPanic(PANIC_CODES.ARITHMETIC_OVERFLOW)
      await expect(vault.entry(3)).to.be.revertedWithPanic(PANIC_CODES.ARRAY_ACCESS_OUT_OF_BOUNDS)
      await expect(vault.divide(6, 3)).not.to.be.reverted
    })
  })

  describe('time and blocks', function () {
    it('time.increase moves the next block by that much', async function () {
      await loadFixture(deployVault)
      const before = await time.latest()
      await time.increase(3600)
      expect(await time.latest()).to.equal(before + 3600)
    })

    it('mine(n, { interval }) adds blocks spaced by the interval', async function () {
      await loadFixture(deployVault)
      const block = await time.latestBlock()
      const before = await time.latest()
      await mine(10, { interval: 15 })
      expect(await time.latestBlock()).to.equal(block + 10)
      const stamps = []
      for (let n = block + 1; n <= block + 10; n++) stamps.push((await ethers.provider.getBlock(n)).timestamp)
      expect(stamps[0]).to.be.greaterThan(before)
      for (let i = 1; i < stamps.length; i++) expect(stamps[i] - stamps[i - 1]).to.equal(15)
    })

    it('blocks mined back to back have increasing timestamps', async function () {
      const { vault } = await loadFixture(deployVault)
      const stamps = []
      for (let i = 0; i < 4; i++) {
        await vault.setCounter(i)
        stamps.push(await time.latest())
      }
      await mine(3)
      stamps.push(await time.latest())
      for (let i = 1; i < stamps.length; i++) expect(stamps[i]).to.be.greaterThan(stamps[i - 1])
    })

    it('calls at an earlier block see that block', async function () {
      const { vault } = await loadFixture(deployVault)
      const number = await time.latestBlock()
      const { timestamp } = await ethers.provider.getBlock(number)
      await time.increase(1000)
      const [atNumber, atTimestamp] = await vault.blockInfo({ blockTag: number })
      expect(atNumber).to.equal(number)
      expect(atTimestamp).to.equal(timestamp)
    })

    it('setNextBlockBaseFeePerGas sets the next block base fee', async function () {
      const { vault } = await loadFixture(deployVault)
      await setNextBlockBaseFeePerGas(1_000_000_000)
      const tx = await vault.setCounter(1, { maxFeePerGas: 2_000_000_000, maxPriorityFeePerGas: 0 })
      const receipt = await tx.wait()
      const block = await ethers.provider.getBlock(receipt.blockNumber)
      expect(block.baseFeePerGas).to.equal(1_000_000_000n)
    })
  })

  describe('state edits', function () {
    it('impersonates the owner, funded with setBalance', async function () {
      const { vault, other } = await loadFixture(deployVault)
      const stranger = ethers.Wallet.createRandom().address
      await vault.setOwner(stranger)
      await impersonateAccount(stranger)
      await setBalance(stranger, ethers.parseEther('10'))
      const signer = await ethers.getSigner(stranger)
      await expect(vault.connect(signer).setCounter(42)).to.emit(vault, 'CounterSet').withArgs(42)
      expect(await vault.counter()).to.equal(42)
      await expect(vault.connect(signer).pay(other, 3)).to.changeEtherBalance(other, 3)
      await stopImpersonatingAccount(stranger)
    })

    it('setCode replaces a contract code', async function () {
      const { vault } = await loadFixture(deployVault)
      const address = ethers.Wallet.createRandom().address
      const code = await ethers.provider.getCode(vault)
      await setCode(address, code)
      expect(await ethers.provider.getCode(address)).to.equal(code)
      const copy = await ethers.getContractAt('Vault', address)
      expect(await copy.divide(9, 3)).to.equal(3)
    })

    it('setStorageAt writes a slot the contract reads', async function () {
      const { vault } = await loadFixture(deployVault)
      await setStorageAt(await vault.getAddress(), 2, 1234)
      expect(await vault.counter()).to.equal(1234)
      expect(BigInt(await getStorageAt(await vault.getAddress(), 2))).to.equal(1234n)
    })

    it('takeSnapshot and restore undo blocks and state', async function () {
      const { vault } = await loadFixture(deployVault)
      const snapshot = await takeSnapshot()
      const block = await time.latestBlock()
      await vault.setCounter(7)
      await mine(5)
      expect(await vault.counter()).to.equal(7)
      await snapshot.restore()
      expect(await vault.counter()).to.equal(0)
      expect(await time.latestBlock()).to.equal(block)
      // A snapshot can be restored again: the helper takes a new one each time.
      await vault.setCounter(8)
      await snapshot.restore()
      expect(await vault.counter()).to.equal(0)
    })

    it('loadFixture gives each test the same fresh state', async function () {
      const { vault } = await loadFixture(deployVault)
      expect(await vault.counter()).to.equal(0)
      await vault.setCounter(99)
      const again = await loadFixture(deployVault)
      expect(await again.vault.getAddress()).to.equal(await vault.getAddress())
      expect(await again.vault.counter()).to.equal(0)
    })
  })
})
