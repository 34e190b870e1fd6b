const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture, time } = require('@nomicfoundation/hardhat-network-helpers')

const SUPPLY = ethers.parseEther('1000')

async function deployToken() {
  const [owner, alice, bob] = await ethers.getSigners()
  const token = await ethers.deployContract('VoteToken', [SUPPLY])
  return { token, owner, alice, bob }
}

async function signPermit(token, owner, spender, value, deadline) {
  const { chainId } = await ethers.provider.getNetwork()
  const domain = { name: await token.name(), version: '1', chainId, verifyingContract: await token.getAddress() }
  const types = {
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  }
  const message = { owner: owner.address, spender: spender.address, value, nonce: await token.nonces(owner), deadline }
  return ethers.Signature.from(await owner.signTypedData(domain, types, message))
}

describe('VoteToken (ERC-20)', function () {
  it('transfers change both balances and emit Transfer', async function () {
    const { token, owner, alice } = await loadFixture(deployToken)
    await expect(token.transfer(alice, 100)).to.changeTokenBalances(token, [owner, alice], [-100, 100])
    await expect(token.connect(alice).transfer(owner, 40))
      .to.emit(token, 'Transfer')
      .withArgs(alice.address, owner.address, 40)
    await expect(token.transfer(alice, 1)).to.changeTokenBalance(token, alice, 1)
  })

  it('a transfer beyond the balance reverts with ERC20InsufficientBalance', async function () {
    const { token, alice, bob } = await loadFixture(deployToken)
    await expect(token.connect(alice).transfer(bob, 1))
      .to.be.revertedWithCustomError(token, 'ERC20InsufficientBalance')
      .withArgs(alice.address, 0, 1)
  })

  it('transferFrom needs an allowance', async function () {
    const { token, owner, alice, bob } = await loadFixture(deployToken)
    await expect(token.connect(alice).transferFrom(owner, bob, 5))
      .to.be.revertedWithCustomError(token, 'ERC20InsufficientAllowance')
      .withArgs(alice.address, 0, 5)
    await token.approve(alice, 5)
    await expect(token.connect(alice).transferFrom(owner, bob, 5)).to.changeTokenBalances(token, [owner, bob], [-5, 5])
  })

  describe('permit (EIP-2612)', function () {
    it('a signed permit sets the allowance, once', async function () {
      const { token, owner, alice } = await loadFixture(deployToken)
      const deadline = (await time.latest()) + 3600
      const { v, r, s } = await signPermit(token, owner, alice, 500, deadline)
      await expect(token.connect(alice).permit(owner, alice, 500, deadline, v, r, s))
        .to.emit(token, 'Approval')
        .withArgs(owner.address, alice.address, 500)
      expect(await token.allowance(owner, alice)).to.equal(500)
      expect(await token.nonces(owner)).to.equal(1)
      await expect(token.connect(alice).permit(owner, alice, 500, deadline, v, r, s)).to.be.revertedWithCustomError(
        token,
        'ERC2612InvalidSigner',
      )
    })

    it('an expired permit reverts with ERC2612ExpiredSignature', async function () {
      const { token, owner, alice } = await loadFixture(deployToken)
      const deadline = (await time.latest()) + 60
      const { v, r, s } = await signPermit(token, owner, alice, 1, deadline)
      await time.increase(61)
      await expect(token.permit(owner, alice, 1, deadline, v, r, s))
        .to.be.revertedWithCustomError(token, 'ERC2612ExpiredSignature')
        .withArgs(deadline)
    })
  })
})
