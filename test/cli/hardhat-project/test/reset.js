const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture, reset, time } = require('@nomicfoundation/hardhat-network-helpers')

async function deployVault() {
  return { vault: await ethers.deployContract('Vault', [(await time.latest()) + 1000]) }
}

describe('reset', function () {
  it('starts a fresh chain, and loadFixture deploys its fixture again', async function () {
    const [owner] = await ethers.getSigners()
    const { vault } = await loadFixture(deployVault)
    await vault.setCounter(3)
    await reset()
    expect(await ethers.provider.getBlockNumber()).to.equal(0)
    expect(await ethers.provider.getCode(vault)).to.equal('0x')
    expect(await ethers.provider.getBalance(owner)).to.equal(ethers.parseEther('10000'))
    const again = await loadFixture(deployVault)
    expect(await again.vault.counter()).to.equal(0)
  })
})
