const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture, mine, time } = require('@nomicfoundation/hardhat-network-helpers')

const TIMELOCK_DELAY = 3600
const State = { Pending: 0, Active: 1, Defeated: 3, Succeeded: 4, Queued: 5, Executed: 7 }
const Vote = { Against: 0, For: 1 }

// The same governance on both ERC-6372 clocks: delay and period in blocks, or in seconds.
for (const { token: tokenName, delay, period, advance } of [
  { token: 'VoteToken', delay: 2, period: 20, advance: (n) => mine(n) },
  { token: 'TimeVoteToken', delay: 3600, period: 7 * 24 * 3600, advance: (n) => time.increase(n) },
]) {
  async function deployDao() {
    const [deployer, voter, other] = await ethers.getSigners()
    const token = await ethers.deployContract(tokenName, [ethers.parseEther('100')])
    await token.transfer(voter, ethers.parseEther('30'))
    await token.connect(voter).delegate(voter)
    await token.delegate(deployer)
    const timelock = await ethers.deployContract('Timelock', [TIMELOCK_DELAY, [], [ethers.ZeroAddress], deployer.address])
    const dao = await ethers.deployContract('Dao', [token, timelock, delay, period])
    await timelock.grantRole(await timelock.PROPOSER_ROLE(), dao)
    await timelock.grantRole(await timelock.CANCELLER_ROLE(), dao)
    await timelock.renounceRole(await timelock.DEFAULT_ADMIN_ROLE(), deployer)
    const vault = await ethers.deployContract('Vault', [(await time.latest()) + 1000])
    await vault.setOwner(timelock)
    const proposal = [[await vault.getAddress()], [0], [vault.interface.encodeFunctionData('setCounter', [77])], 'Set the counter to 77']
    const descriptionHash = ethers.id(proposal[3])
    return { token, timelock, dao, vault, deployer, voter, other, proposal, descriptionHash }
  }

  async function propose(fixture) {
    const { dao, proposal, descriptionHash } = fixture
    await dao.propose(...proposal)
    return dao.hashProposal(proposal[0], proposal[1], proposal[2], descriptionHash)
  }

  describe(`governor on ${tokenName}'s clock`, function () {
    it('a proposal goes Pending → Active → Succeeded → Queued → Executed', async function () {
      const fixture = await loadFixture(deployDao)
      const { dao, vault, voter, proposal, descriptionHash } = fixture
      const id = await propose(fixture)
      expect(await dao.state(id)).to.equal(State.Pending)
      await expect(dao.connect(voter).castVote(id, Vote.For))
        .to.be.revertedWithCustomError(dao, 'GovernorUnexpectedProposalState')
      await advance(delay + 1)
      expect(await dao.state(id)).to.equal(State.Active)
      await expect(dao.connect(voter).castVote(id, Vote.For))
        .to.emit(dao, 'VoteCast')
        .withArgs(voter.address, id, Vote.For, ethers.parseEther('30'), '')
      await advance(period)
      expect(await dao.state(id)).to.equal(State.Succeeded)
      await expect(dao.queue(proposal[0], proposal[1], proposal[2], descriptionHash)).to.emit(dao, 'ProposalQueued')
      expect(await dao.state(id)).to.equal(State.Queued)
      await expect(dao.execute(proposal[0], proposal[1], proposal[2], descriptionHash)).to.be.reverted
      await time.increase(TIMELOCK_DELAY)
      await expect(dao.execute(proposal[0], proposal[1], proposal[2], descriptionHash))
        .to.emit(vault, 'CounterSet')
        .withArgs(77)
      expect(await dao.state(id)).to.equal(State.Executed)
      expect(await vault.counter()).to.equal(77)
    })

    it('votes count as delegated at the snapshot, not after', async function () {
      const fixture = await loadFixture(deployDao)
      const { dao, token, deployer, voter, other } = fixture
      const id = await propose(fixture)
      const snapshot = await dao.proposalSnapshot(id)
      await advance(delay + 1)
      // Tokens moved after the snapshot do not vote.
      await token.connect(voter).transfer(other, ethers.parseEther('30'))
      await token.connect(other).delegate(other)
      await expect(dao.connect(other).castVote(id, Vote.Against))
        .to.emit(dao, 'VoteCast')
        .withArgs(other.address, id, Vote.Against, 0, '')
      expect(await dao.getVotes(voter, snapshot)).to.equal(ethers.parseEther('30'))
      await dao.connect(deployer).castVote(id, Vote.Against)
      await advance(period)
      expect(await dao.state(id)).to.equal(State.Defeated)
    })
  })
}
