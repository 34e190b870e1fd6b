const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture, time } = require('@nomicfoundation/hardhat-network-helpers')

const DELAY = 2 * 24 * 3600
const SALT = ethers.ZeroHash

async function deployTimelock() {
  const [admin, proposer, executor] = await ethers.getSigners()
  const timelock = await ethers.deployContract('Timelock', [DELAY, [proposer.address], [executor.address], admin.address])
  const vault = await ethers.deployContract('Vault', [(await time.latest()) + 1000])
  await vault.setOwner(timelock)
  const data = vault.interface.encodeFunctionData('setCounter', [5])
  return { timelock, vault, proposer, executor, data }
}

describe('Timelock', function () {
  it('runs a scheduled call once the delay has passed', async function () {
    const { timelock, vault, proposer, executor, data } = await loadFixture(deployTimelock)
    const id = await timelock.hashOperation(vault, 0, data, ethers.ZeroHash, SALT)
    await expect(timelock.connect(proposer).schedule(vault, 0, data, ethers.ZeroHash, SALT, DELAY)).to.emit(
      timelock,
      'CallScheduled',
    )
    expect(await timelock.getTimestamp(id)).to.equal((await time.latest()) + DELAY)
    await expect(timelock.connect(executor).execute(vault, 0, data, ethers.ZeroHash, SALT))
      .to.be.revertedWithCustomError(timelock, 'TimelockUnexpectedOperationState')
      .withArgs(id, ethers.zeroPadValue('0x04', 32))
    await time.increase(DELAY)
    await expect(timelock.connect(executor).execute(vault, 0, data, ethers.ZeroHash, SALT))
      .to.emit(vault, 'CounterSet')
      .withArgs(5)
    expect(await timelock.isOperationDone(id)).to.equal(true)
  })

  it('refuses a delay under the minimum and callers without the role', async function () {
    const { timelock, vault, proposer, executor, data } = await loadFixture(deployTimelock)
    await expect(timelock.connect(proposer).schedule(vault, 0, data, ethers.ZeroHash, SALT, DELAY - 1))
      .to.be.revertedWithCustomError(timelock, 'TimelockInsufficientDelay')
      .withArgs(DELAY - 1, DELAY)
    await expect(timelock.connect(executor).schedule(vault, 0, data, ethers.ZeroHash, SALT, DELAY))
      .to.be.revertedWithCustomError(timelock, 'AccessControlUnauthorizedAccount')
      .withArgs(executor.address, await timelock.PROPOSER_ROLE())
  })
})
