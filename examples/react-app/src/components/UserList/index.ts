export { UserList, default } from './UserList';
export { UserListItem } from './UserListItem';
