/**
 * Signatures that decode without an ABI: the token standards' functions and events and Solidity's
 * built-in errors. Written as signatures and parsed by viem, which hashes them for their
 * selectors and topics: no hand-copied hex. ERC-20 and ERC-721 share Transfer's and Approval's
 * topic 0 but index different arguments, so each standard is an ABI of its own and both are tried.
 */
import { parseAbi, type Abi } from 'viem'

export const WELL_KNOWN: readonly { name: string; abi: Abi }[] = [
  {
    name: 'ERC-20',
    abi: parseAbi([
      'function transfer(address to, uint256 value) returns (bool)',
      'function approve(address spender, uint256 value) returns (bool)',
      'function transferFrom(address from, address to, uint256 value) returns (bool)',
      'function balanceOf(address account) view returns (uint256)',
      'function allowance(address owner, address spender) view returns (uint256)',
      'function totalSupply() view returns (uint256)',
      'event Transfer(address indexed from, address indexed to, uint256 value)',
      'event Approval(address indexed owner, address indexed spender, uint256 value)',
    ]),
  },
  {
    name: 'ERC-721',
    abi: parseAbi([
      'function safeTransferFrom(address from, address to, uint256 tokenId)',
      'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
      'function setApprovalForAll(address operator, bool approved)',
      'function ownerOf(uint256 tokenId) view returns (address)',
      'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
      'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
      'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
    ]),
  },
  {
    name: 'Solidity',
    abi: parseAbi(['error Error(string message)', 'error Panic(uint256 code)']),
  },
  {
    name: 'ZKsync system contracts',
    abi: parseAbi(['function sendToL1(bytes message) returns (bytes32)', 'event L1MessageSent(address indexed _sender, bytes32 indexed _hash, bytes _message)']),
  },
]
