const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture, mine, time } = require('@nomicfoundation/hardhat-network-helpers')

const SUPPLY = ethers.parseEther('100')

async function deployTokens() {
  const [owner, alice] = await ethers.getSigners()
  const byBlock = await ethers.deployContract('VoteToken', [SUPPLY])
  const byTime = await ethers.deployContract('TimeVoteToken', [SUPPLY])
  return { byBlock, byTime, owner, alice }
}

describe('vote checkpoints (ERC-5805, ERC-6372 clocks)', function () {
  it('each token reports its clock', async function () {
    const { byBlock, byTime } = await loadFixture(deployTokens)
    expect(await byBlock.CLOCK_MODE()).to.equal('mode=blocknumber&from=default')
    expect(await byBlock.clock()).to.equal(await time.latestBlock())
    expect(await byTime.CLOCK_MODE()).to.equal('mode=timestamp')
    expect(await byTime.clock()).to.equal(await time.latest())
  })

  it('checkpoints by block number: past votes at each block', async function () {
    const { byBlock, owner, alice } = await loadFixture(deployTokens)
    await byBlock.delegate(owner)
    const delegated = await time.latestBlock()
    await byBlock.transfer(alice, ethers.parseEther('40'))
    const transferred = await time.latestBlock()
    await mine()
    expect(await byBlock.getPastVotes(owner, delegated - 1)).to.equal(0)
    expect(await byBlock.getPastVotes(owner, delegated)).to.equal(SUPPLY)
    expect(await byBlock.getPastVotes(owner, transferred)).to.equal(ethers.parseEther('60'))
    expect(await byBlock.getPastTotalSupply(transferred)).to.equal(SUPPLY)
    await expect(byBlock.getPastVotes(owner, transferred + 1)).to.be.revertedWithCustomError(byBlock, 'ERC5805FutureLookup')
  })

  it('checkpoints by timestamp: every block its own time point', async function () {
    const { byTime, owner, alice } = await loadFixture(deployTokens)
    await byTime.delegate(owner)
    const delegated = await time.latest()
    await byTime.transfer(alice, ethers.parseEther('25'))
    const transferred = await time.latest()
    await byTime.connect(alice).delegate(alice)
    const aliceDelegated = await time.latest()
    expect(transferred).to.be.greaterThan(delegated)
    expect(aliceDelegated).to.be.greaterThan(transferred)
    await mine()
    expect(await byTime.getPastVotes(owner, delegated)).to.equal(SUPPLY)
    expect(await byTime.getPastVotes(owner, transferred)).to.equal(ethers.parseEther('75'))
    expect(await byTime.getPastVotes(alice, transferred)).to.equal(0)
    expect(await byTime.getPastVotes(alice, aliceDelegated)).to.equal(ethers.parseEther('25'))
  })

  it('a checkpoint after time.increase is found by that time', async function () {
    const { byTime, owner } = await loadFixture(deployTokens)
    await byTime.delegate(owner)
    const before = await time.latest()
    await time.increase(7 * 24 * 3600)
    await byTime.transfer(ethers.Wallet.createRandom().address, ethers.parseEther('1'))
    const after = await time.latest()
    await mine()
    expect(after).to.be.at.least(before + 7 * 24 * 3600)
    expect(await byTime.getPastVotes(owner, after - 1)).to.equal(SUPPLY)
    expect(await byTime.getPastVotes(owner, after)).to.equal(ethers.parseEther('99'))
  })
})
