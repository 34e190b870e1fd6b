const { expect } = require('chai')
const { ethers, network } = require('hardhat')
const helpers = require('@nomicfoundation/hardhat-network-helpers')

const { time, mine, mineUpTo, takeSnapshot } = helpers

describe('network helpers', function () {
  let snapshot
  beforeEach(async function () {
    snapshot = await takeSnapshot()
  })
  afterEach(async function () {
    await snapshot.restore()
  })

  it('mineUpTo mines up to a block number', async function () {
    const block = await time.latestBlock()
    await mineUpTo(block + 5)
    expect(await time.latestBlock()).to.equal(block + 5)
    await expect(mineUpTo(block + 5)).to.be.rejected
  })

  it('time.advanceBlockTo and time.increaseTo with a mined block', async function () {
    const block = await time.latestBlock()
    await time.advanceBlockTo(block + 3)
    expect(await time.latestBlock()).to.equal(block + 3)
    const target = (await time.latest()) + 1000
    await time.increaseTo(target)
    expect(await time.latest()).to.equal(target)
    await expect(time.increaseTo(target)).to.be.rejected
  })

  it('time.setNextBlockTimestamp applies to the next block only', async function () {
    const target = (await time.latest()) + 500
    await time.setNextBlockTimestamp(target)
    await mine()
    expect(await time.latest()).to.equal(target)
    await mine()
    expect(await time.latest()).to.be.greaterThan(target)
  })

  it('setNonce sets an account nonce', async function () {
    const address = ethers.Wallet.createRandom().address
    await helpers.setNonce(address, 25)
    expect(await ethers.provider.getTransactionCount(address)).to.equal(25)
  })

  it('setCoinbase sets the next blocks miner', async function () {
    const coinbase = ethers.Wallet.createRandom().address
    await helpers.setCoinbase(coinbase)
    await mine()
    const block = await ethers.provider.getBlock('latest')
    expect(block.miner).to.equal(coinbase)
  })

  it('setBlockGasLimit sets the next blocks gas limit', async function () {
    await helpers.setBlockGasLimit(50_000_000)
    await mine()
    const block = await ethers.provider.getBlock('latest')
    expect(block.gasLimit).to.equal(50_000_000n)
  })

  it('setPrevRandao sets the next block prevrandao', async function () {
    await helpers.setPrevRandao(0x1234)
    await mine()
    const block = await network.provider.send('eth_getBlockByNumber', ['latest', false])
    expect(BigInt(block.mixHash)).to.equal(0x1234n)
  })

  it('dropTransaction removes a pending transaction', async function () {
    const [sender] = await ethers.getSigners()
    await network.provider.send('evm_setAutomine', [false])
    try {
      const tx = await sender.sendTransaction({ to: ethers.Wallet.createRandom().address, value: 1 })
      expect(await ethers.provider.getTransaction(tx.hash)).to.not.equal(null)
      await helpers.dropTransaction(tx.hash)
      expect(await ethers.provider.getTransaction(tx.hash)).to.equal(null)
    } finally {
      await network.provider.send('evm_setAutomine', [true])
    }
  })

  it('impersonateAccount lets a contract address send', async function () {
    const [funder] = await ethers.getSigners()
    const token = await ethers.deployContract('VoteToken', [1000])
    const holder = await token.getAddress()
    await token.transfer(holder, 10)
    await helpers.impersonateAccount(holder)
    await helpers.setBalance(holder, ethers.parseEther('1'))
    const signer = await ethers.getSigner(holder)
    await expect(token.connect(signer).transfer(funder, 4)).to.changeTokenBalances(token, [holder, funder], [-4, 4])
    await helpers.stopImpersonatingAccount(holder)
  })

  it('reverting a failing send with an explicit gas limit', async function () {
    const vault = await ethers.deployContract('Vault', [(await time.latest()) + 1000])
    await expect(vault.withdraw({ gasLimit: 100_000 })).to.be.revertedWithCustomError(vault, 'TooEarly')
    await expect(vault.divide(1, 0, { gasLimit: 100_000 })).to.be.revertedWithPanic(0x12)
  })
})
