const { expect } = require('chai')
const { ethers } = require('hardhat')

describe('large contracts', function () {
  it('deploys more code than EIP-170 allows when the limit is lifted', async function () {
    const large = await ethers.deployContract('Large')
    expect(ethers.dataLength(await ethers.provider.getCode(large))).to.equal(30000)
  })
})
